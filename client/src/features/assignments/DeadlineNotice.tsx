import { Copy } from 'lucide-react';
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import { formatListDate } from '../../components/dates';
import { copyToClipboard } from '../drafts/DraftNotices';
import { clockTime } from '../drafts/draftStatus';
import type { Deadline } from './useDeadline';

/**
 * What the answer dialog says about its due time (DESIGN §17): a closing assignment warns 10 and
 * 1 minutes before it closes; once closed it says so and offers the text to copy (Submit is
 * disabled); past due on one that still takes work, it says the work will be marked late.
 */
export function DeadlineNotice({
  deadline,
  dueDate,
  content,
}: {
  deadline: Deadline;
  dueDate: string;
  /** The answer on screen, offered to copy once it can no longer be submitted. */
  content: string;
}) {
  switch (deadline.kind) {
    case 'open':
      return null;
    case 'closing':
      return (
        <Notice
          tone="warning"
          title={deadline.within === 1 ? 'Closes in less than a minute' : 'Closes in less than 10 minutes'}
        >
          This assignment stops taking submissions at {clockTime(dueDate)}. Submit before then.
        </Notice>
      );
    case 'closed':
      return (
        <Notice tone="warning" title="This assignment is closed">
          <p>
            It stopped taking submissions at its due time ({formatListDate(dueDate)}). Your text is still
            here: copy it to keep it, or ask your teacher.
          </p>
          <Button variant="secondary" size="sm" icon={<Copy />} onClick={() => void copyToClipboard(content)}>
            Copy your answer
          </Button>
        </Notice>
      );
    case 'late':
      return (
        <Notice tone="info" title="Past due — your work will be marked late">
          It was due {formatListDate(dueDate)}. You can still submit; your teacher sees it as late.
        </Notice>
      );
  }
}
