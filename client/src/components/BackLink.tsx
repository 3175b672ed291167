import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import './BackLink.css';

/**
 * "← Back to …" above a page's header. Its own component and stylesheet: the gradebook, loaded
 * without the course page's stylesheet, showed the arrow above a wrapped label.
 */
export function BackLink({
  to,
  standalone = false,
  children,
}: {
  to: string;
  standalone?: boolean;
  children: ReactNode;
}) {
  return (
    <Link to={to} className={standalone ? 'back-link back-link--standalone' : 'back-link'}>
      <ArrowLeft aria-hidden="true" size={18} />
      <span className="back-link__label">{children}</span>
    </Link>
  );
}
