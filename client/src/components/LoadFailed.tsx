import { RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { httpStatus, isFetchBaseQueryError } from '../api/errors';
import { Button } from './Button';
import { EmptyState } from './EmptyState';

export interface LoadFailedProps {
  /** A decorative icon for what failed to load. */
  icon: ReactNode;
  /** What could not be loaded, e.g. "Courses could not be loaded". */
  title: string;
  /** Asks for the data again. */
  onRetry: () => void;
  /** The failure (RTK Query's `error`), so the text can say what happened. */
  error?: unknown;
}

/**
 * What went wrong, in words a user can act on: only a request that got no answer is a matter of
 * the connection; a server's 5xx is its own failure, which a retry often gets past.
 */
export function loadFailedReason(error: unknown): string {
  let status = httpStatus(error);
  if (isFetchBaseQueryError(error)) {
    if (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR') {
      return 'Check your connection, then try again.';
    }
    // A body that was not JSON, e.g. a proxy's HTML 502 page: its HTTP status still tells.
    if (error.status === 'PARSING_ERROR') status = error.originalStatus;
  }
  if (status !== undefined && status >= 500) {
    return 'The server ran into a problem. Please try again in a moment.';
  }
  if (status === 429) return 'Too many requests just now. Please wait a moment, then try again.';
  return 'Something went wrong. Please try again.';
}

/** What a screen shows in place of data that could not be loaded: the reason and Try again. */
export function LoadFailed({ icon, title, onRetry, error }: LoadFailedProps) {
  return (
    <EmptyState
      icon={icon}
      title={title}
      action={
        <Button variant="secondary" icon={<RotateCw />} onClick={onRetry}>
          Try again
        </Button>
      }
    >
      {loadFailedReason(error)}
    </EmptyState>
  );
}
