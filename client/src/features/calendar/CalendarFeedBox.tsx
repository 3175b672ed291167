import { Copy, Link2, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Input } from '../../components/Input';
import { Modal } from '../../components/Modal';
import { useCreateCalendarFeedMutation, useGetCalendarFeedQuery } from './calendarApi';

/**
 * The personal ICS feed (DESIGN §14): its URL with Copy and Reset. No URL exists until the user
 * asks for one; a reset makes a new one and the old stops at once, so it is confirmed first.
 */
export function CalendarFeedBox() {
  const { data, isLoading, isError } = useGetCalendarFeedQuery();
  const [create, { isLoading: creating }] = useCreateCalendarFeedMutation();
  const [confirming, setConfirming] = useState(false);
  const url = data?.url ?? null;

  async function makeUrl(reset: boolean) {
    try {
      await create().unwrap();
      setConfirming(false);
      if (reset) toast.success('A new feed URL is ready. The old one no longer works.');
    } catch (error) {
      toast.error(apiErrorMessage(error, 'The feed URL could not be created.'));
    }
  }

  async function copy(value: string) {
    try {
      await navigator.clipboard.writeText(value);
      toast.success('Feed URL copied');
    } catch {
      toast.error('Copying failed: select the URL and copy it yourself.');
    }
  }

  return (
    <Card as="section" aria-labelledby="calendar-feed-title" className="calendar-feed">
      <h2 id="calendar-feed-title" className="calendar-feed__title">
        Calendar feed
      </h2>
      <p className="calendar-feed__text">
        Subscribe from Google Calendar, Outlook or Apple Calendar to see your due dates there. Keep the URL
        private: anyone with it can read your due dates.
      </p>
      {isLoading ? null : url ? (
        <>
          <Input
            label="Feed URL"
            readOnly
            value={url}
            containerClassName="calendar-feed__url"
            onFocus={(event) => event.currentTarget.select()}
          />
          <div className="calendar-feed__actions">
            <Button icon={<Copy size={16} />} onClick={() => void copy(url)}>
              Copy
            </Button>
            <Button variant="secondary" icon={<RefreshCw size={16} />} onClick={() => setConfirming(true)}>
              Reset
            </Button>
          </div>
        </>
      ) : (
        <div className="calendar-feed__actions">
          {isError && <p className="calendar-feed__text">Your feed could not be loaded.</p>}
          <Button icon={<Link2 size={16} />} loading={creating} onClick={() => void makeUrl(false)}>
            Get my feed URL
          </Button>
        </div>
      )}
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Reset the feed URL?"
        description="Calendars subscribed to the current URL stop updating until you give them the new one."
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button variant="danger" loading={creating} onClick={() => void makeUrl(true)}>
              Reset URL
            </Button>
          </>
        }
      />
    </Card>
  );
}
