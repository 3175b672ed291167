import type { Assignment } from '@classwave/shared';
import { MessageCircle } from 'lucide-react';
import { useAppSelector } from '../../app/hooks';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { PrivateThread } from './PrivateThread';
import { selectThreadUnread } from './threadNotifications';

/**
 * A student's way to their teacher about one assignment, on its card before and after submitting:
 * the button carries the number of unread replies, and opens the private thread in a dialog.
 */
export function PrivateCommentsButton({
  assignment,
  studentId,
  open,
  onOpenChange,
  describedBy,
}: {
  assignment: Assignment;
  studentId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  describedBy: string;
}) {
  const thread = { assignmentId: assignment.id, studentId };
  const unread = useAppSelector((state) => selectThreadUnread(state, thread));
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        icon={<MessageCircle />}
        aria-describedby={describedBy}
        aria-haspopup="dialog"
        onClick={() => onOpenChange(true)}
      >
        Private comments
        {unread > 0 && (
          <>
            {' '}
            <span className="count-pill count-pill--alert" data-testid="thread-unread">
              {unread} <span className="sr-only">unread</span>
            </span>
          </>
        )}
      </Button>
      {open && (
        <Modal
          open
          onClose={() => onOpenChange(false)}
          title="Private comments"
          description={`${assignment.title} · only you and your teacher see these`}
          size="md"
        >
          <PrivateThread thread={thread} writeTo="your teacher" />
        </Modal>
      )}
    </>
  );
}
