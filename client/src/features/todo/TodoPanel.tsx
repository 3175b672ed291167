import {
  TODO_BUCKET_LABELS,
  TODO_OVERDUE_DAYS,
  todoBucket,
  type Role,
  type Todo,
  type TodoBucket,
  type TodoItem,
} from '@classwave/shared';
import { ListChecks } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Card } from '../../components/Card';
import { formatEventTime } from '../../components/dates';
import { Skeleton } from '../../components/Skeleton';
import { useNow } from '../assignments/useNow';
import { StreamNews } from '../conversations/StreamNews';
import { useGetTodoQuery } from './todoApi';
import './TodoPanel.css';

const STUDENT_BUCKETS: readonly TodoBucket[] = ['overdue', 'today', 'week', 'later'];

interface Group {
  key: string;
  label: string;
  items: TodoItem[];
  tone?: 'danger';
  /** A line under the title, saying what the list leaves out. */
  note?: string;
}

/** The server keeps overdue work only while it can still be done (shared TODO_OVERDUE_DAYS): say so. */
export const OVERDUE_NOTE = `Still open, due in the last ${TODO_OVERDUE_DAYS} days. Older or closed work is on the Assignments page.`;

/** The lists a role sees, in order; a student's work is bucketed in the viewer's own zone. */
export function todoGroups(todo: Todo, role: Role, now: Date): Group[] {
  if (role === 'teacher') {
    return [
      { key: 'toGrade', label: 'To grade', items: todo.toGrade },
      { key: 'toReturn', label: 'To return', items: todo.toReturn },
    ];
  }
  return STUDENT_BUCKETS.map((bucket) => ({
    key: bucket,
    label: TODO_BUCKET_LABELS[bucket],
    items: todo.work.filter((item) => todoBucket(item.dueDate, now) === bucket),
    tone: bucket === 'overdue' ? ('danger' as const) : undefined,
    note: bucket === 'overdue' ? OVERDUE_NOTE : undefined,
  }));
}

/** The dashboard's to-do (DESIGN §14): what needs doing, grouped, refetched live on every change. */
export function TodoPanel({ role }: { role: Role }) {
  // Live, no cache: fetched on arrival, and again on each event that can move an item.
  const { data, isLoading, isError } = useGetTodoQuery(undefined, { refetchOnMountOrArgChange: true });
  const now = useNow();
  const groups = data ? todoGroups(data, role, now).filter((group) => group.items.length > 0) : [];

  return (
    <Card as="section" aria-labelledby="todo-title" className="dashboard__panel todo">
      <h2 id="todo-title" className="dashboard__panel-title">
        To-do
      </h2>
      <StreamNews />
      {isLoading ? (
        <div aria-busy="true">
          <Skeleton width="40%" />
          <Skeleton width="80%" />
        </div>
      ) : groups.length > 0 ? (
        groups.map((group) => (
          <section key={group.key} className="todo__group" aria-labelledby={`todo-${group.key}`}>
            <h3
              id={`todo-${group.key}`}
              className={`todo__group-title todo__group-title--${group.tone ?? 'plain'}`}
            >
              {group.label} <span className="todo__count">({group.items.length})</span>
            </h3>
            {group.note && <p className="todo__note">{group.note}</p>}
            <ul className="todo__list">
              {group.items.map((item) => (
                <li key={item.assignmentId}>
                  <Link to={`/assignments?open=${item.assignmentId}`} className="todo__item">
                    <span className="todo__item-title">{item.title}</span>
                    <span className="todo__item-meta">
                      {item.courseTitle}
                      {role === 'teacher' &&
                        `, ${item.count} ${item.count === 1 ? 'submission' : 'submissions'}`}
                    </span>
                    <time className="todo__item-time" dateTime={item.dueDate}>
                      Due {formatEventTime(item.dueDate, now)}
                    </time>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))
      ) : (
        <p className="dashboard__empty">
          <ListChecks aria-hidden="true" size={22} />
          {data
            ? 'Nothing to do right now'
            : isError
              ? 'The to-do list could not be loaded.'
              : 'Nothing to do right now'}
        </p>
      )}
    </Card>
  );
}
