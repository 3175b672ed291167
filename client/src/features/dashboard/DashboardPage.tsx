import { firstName, greetingFor, type Dashboard, type UpcomingEvent } from '@classwave/shared';
import {
  BookOpen,
  CalendarClock,
  ChevronRight,
  ClipboardList,
  Users,
  Video,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks';
import { Card } from '../../components/Card';
import { formatEventTime } from '../../components/dates';
import { PageHeader } from '../../components/PageHeader';
import { Skeleton } from '../../components/Skeleton';
import { useErrorToast } from '../../components/useErrorToast';
import { selectProfile } from '../auth/authSlice';
import { TodoPanel } from '../todo/TodoPanel';
import { useGetDashboardQuery } from './dashboardApi';
import { QUICK_ACTIONS } from './quickActions';
import './DashboardPage.css';

const STATS: readonly { key: keyof Dashboard['stats']; label: string; icon: LucideIcon; tone: string }[] = [
  { key: 'totalCourses', label: 'Total Courses', icon: BookOpen, tone: 'indigo' },
  { key: 'activeAssignments', label: 'Active Assignments', icon: ClipboardList, tone: 'amber' },
  { key: 'upcomingClasses', label: 'Upcoming Classes', icon: Video, tone: 'sky' },
  { key: 'teamMembers', label: 'Team Members', icon: Users, tone: 'emerald' },
];

const EVENT_PLACEHOLDERS = 3;

/** The dashboard (spec §2): greeting, stats, to-do (DESIGN §14), upcoming events and quick actions for the user's role. */
export function DashboardPage() {
  const profile = useAppSelector(selectProfile);
  const role = profile?.role ?? 'student';
  // Always refreshed on arrival: counts change as courses and assignments come and go.
  const { data, isLoading, error } = useGetDashboardQuery(undefined, { refetchOnMountOrArgChange: true });
  useErrorToast(error, 'Failed to load dashboard data', { log: true });

  return (
    <div className="dashboard">
      <PageHeader
        title={`${greetingFor(new Date())}, ${firstName(profile?.fullName)}!`}
        subtitle={`Welcome to your ${role} dashboard`}
      />

      <section aria-label="Overview" className="stat-grid">
        {STATS.map(({ key, label, icon: Icon, tone }) => (
          <Card key={key} className={`stat-card stat-card--${tone}`}>
            <span className="stat-card__icon" aria-hidden="true">
              <Icon size={22} />
            </span>
            <div className="stat-card__text">
              <p className="stat-card__label">{label}</p>
              <p className="stat-card__value" data-testid={`stat-${key}`}>
                {data ? data.stats[key] : '-'}
              </p>
            </div>
          </Card>
        ))}
      </section>

      <div className="dashboard__columns">
        <div className="dashboard__stack">
          <TodoPanel role={role} />
          <Card as="section" aria-labelledby="upcoming-events" className="dashboard__panel">
            <h2 id="upcoming-events" className="dashboard__panel-title">
              Upcoming Events
            </h2>
            {isLoading ? (
              <ul className="event-list" aria-busy="true">
                {Array.from({ length: EVENT_PLACEHOLDERS }, (_, index) => (
                  <li
                    key={index}
                    className="event event--placeholder"
                    data-testid="event-placeholder"
                    aria-hidden="true"
                  >
                    <Skeleton width="2.5rem" height="2.5rem" className="event__icon-skeleton" />
                    <div className="event__text">
                      <Skeleton width="60%" />
                      <Skeleton width="35%" height="0.75rem" />
                    </div>
                  </li>
                ))}
              </ul>
            ) : data && data.upcomingEvents.length > 0 ? (
              <ul className="event-list">
                {data.upcomingEvents.map((event) => (
                  <EventItem key={`${event.type}:${event.id}`} event={event} />
                ))}
              </ul>
            ) : (
              <p className="dashboard__empty">
                <CalendarClock aria-hidden="true" size={22} />
                {data ? 'No upcoming events' : 'Upcoming events could not be loaded.'}
              </p>
            )}
          </Card>
        </div>

        <Card as="section" aria-labelledby="quick-actions" className="dashboard__panel">
          <h2 id="quick-actions" className="dashboard__panel-title">
            Quick Actions
          </h2>
          <ul className="quick-actions">
            {QUICK_ACTIONS[role].map(({ label, description, to, state, icon: Icon }) => (
              <li key={label}>
                {/* Named by its content, label and description both: an aria-label of the label
                    alone hid the visible description from speech and voice control. */}
                <Link to={to} state={state} className="quick-action">
                  <span className="quick-action__icon" aria-hidden="true">
                    <Icon size={20} />
                  </span>
                  <span className="quick-action__text">
                    <span className="quick-action__label">{label}</span>
                    {/* Keeps the two parts apart in the name where no layout separates them. */}
                    <span className="sr-only">, </span>
                    <span className="quick-action__description">{description}</span>
                  </span>
                  <ChevronRight className="quick-action__chevron" aria-hidden="true" size={18} />
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </div>
  );
}

function EventItem({ event }: { event: UpcomingEvent }) {
  const Icon = event.type === 'class' ? Video : ClipboardList;
  return (
    <li className={`event event--${event.type}`}>
      <span className="event__icon" aria-hidden="true">
        <Icon size={20} />
      </span>
      <div className="event__text">
        <p className="event__title">{event.title}</p>
        <p className="event__course">
          <span className="sr-only">{event.type === 'class' ? 'Live class, ' : 'Assignment due, '}</span>
          {event.courseTitle}
        </p>
      </div>
      <time className="event__time" dateTime={event.time}>
        {formatEventTime(event.time)}
      </time>
    </li>
  );
}
