import type { CalendarItem } from '@classwave/shared';
import { format } from 'date-fns';
import { Link } from 'react-router-dom';
import { itemLook } from './calendarItemLook';

/** One day's due items as links, with the status (students) or what is left to grade (teachers). */
export function DayItems({ items }: { items: CalendarItem[] }) {
  return (
    <ul className="day-items">
      {items.map((item) => {
        const look = itemLook(item);
        return (
          <li key={item.assignmentId}>
            <Link to={`/assignments?open=${item.assignmentId}`} className={`day-item day-item--${look.tone}`}>
              <span className="day-item__title">{item.title}</span>
              <span className="day-item__meta">
                {item.courseTitle} · due {format(new Date(item.dueDate), 'h:mm a')}
              </span>
              <span className={`day-item__note cal-chip--${look.tone}`}>{look.note}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
