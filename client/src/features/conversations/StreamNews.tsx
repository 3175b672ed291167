import type { StreamNewsItem } from '@classwave/shared';
import { Link } from 'react-router-dom';
import { useGetStreamNewsQuery } from './conversationsApi';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "2 new posts, 3 new comments": what is new in one course since the reader last opened its stream. */
export function newsSummary(item: Pick<StreamNewsItem, 'newPosts' | 'newComments'>): string {
  return [
    item.newPosts > 0 ? plural(item.newPosts, 'new post') : null,
    item.newComments > 0 ? plural(item.newComments, 'new comment') : null,
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * The to-do's "New in your classes" (DESIGN §19): per course, the posts and comments others wrote
 * since the reader last opened its stream, and the newest post's first line; opening the stream
 * clears it. Nothing shows while nothing is new (or while it loads: it is news, not a task).
 */
export function StreamNews() {
  const { data } = useGetStreamNewsQuery(undefined, { refetchOnMountOrArgChange: true });
  if (!data || data.length === 0) return null;
  return (
    <section className="todo__group stream-news" aria-labelledby="todo-stream-news">
      <h3 id="todo-stream-news" className="todo__group-title todo__group-title--plain">
        New in your classes <span className="todo__count">({data.length})</span>
      </h3>
      <ul className="todo__list">
        {data.map((item) => (
          <li key={item.courseId}>
            <Link to={`/courses/${item.courseId}`} className="todo__item">
              <span className="todo__item-title">{item.latest?.title ?? item.courseTitle}</span>
              <span className="todo__item-meta">
                {item.courseTitle}, {newsSummary(item)}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
