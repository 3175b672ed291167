import { RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './Button';
import { EmptyState } from './EmptyState';

export interface LoadFailedProps {
  /** A decorative icon for what failed to load. */
  icon: ReactNode;
  /** What could not be loaded, e.g. "Courses could not be loaded". */
  title: string;
  /** Asks for the data again. */
  onRetry: () => void;
}

/** What a screen shows in place of data that could not be loaded: the reason and Try again. */
export function LoadFailed({ icon, title, onRetry }: LoadFailedProps) {
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
      Check your connection, then try again.
    </EmptyState>
  );
}
