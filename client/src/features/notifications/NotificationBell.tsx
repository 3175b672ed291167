import type { Notification } from '@classwave/shared';
import { Bell, CheckCheck } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { useAppDispatch } from '../../app/hooks';
import { Button } from '../../components/Button';
import { formatEventTime } from '../../components/dates';
import { focusableWithin } from '../../components/focusable';
import {
  loadOlderNotifications,
  useGetNotificationsQuery,
  useReadNotificationsMutation,
} from './notificationsApi';
import { setInboxOpen } from './toastNotification';
import './NotificationBell.css';

/** The bell's accessible name: the count in words, so it is heard and not only seen. */
export function bellLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}

/**
 * The top bar's bell (DESIGN §14): the unread count, and a panel with the inbox that opens from it.
 * Escape or a click outside closes the panel and focus goes back to the bell.
 */
export function NotificationBell() {
  const dispatch = useAppDispatch();
  const { data, isLoading, isError } = useGetNotificationsQuery();
  const [read] = useReadNotificationsMutation();
  const [open, setOpen] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const titleId = useId();
  const unread = data?.unreadCount ?? 0;
  // The entry to focus once the list shows it (after Load more).
  const focusEntry = useRef<number | null>(null);

  useEffect(() => {
    if (focusEntry.current === null) return;
    const entry = panelRef.current?.querySelectorAll<HTMLElement>('.bell__item')[focusEntry.current];
    if (!entry) return;
    focusEntry.current = null;
    entry.focus();
  }, [data]);

  useEffect(() => {
    setInboxOpen(open);
    if (!open) return;
    // The panel opens under the toasts' corner: they would cover its entries (and a toast under
    // the pointer never times out). What they said is in the list.
    toast.dismiss();
    const panel = panelRef.current;
    (panel && (focusableWithin(panel)[0] ?? panel))?.focus();
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    }
    function onPointerDown(event: PointerEvent) {
      const target = event.target as Node;
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    }
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      setInboxOpen(false);
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  function openItem(notification: Notification) {
    setOpen(false);
    if (notification.readAt === null) void read({ ids: [notification.id] });
  }

  async function loadOlder(before: string) {
    setLoadingOlder(true);
    // The button may be gone (the last page): focus goes on to the first entry the page brings.
    focusEntry.current = data?.items.length ?? 0;
    try {
      await dispatch(loadOlderNotifications(before));
    } catch {
      focusEntry.current = null;
      toast.error('Older notifications could not be loaded.');
    } finally {
      setLoadingOlder(false);
    }
  }

  return (
    <div className="bell">
      <button
        ref={buttonRef}
        type="button"
        className="bell__button"
        aria-label={bellLabel(unread)}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((was) => !was)}
      >
        <Bell aria-hidden="true" size={20} />
        {unread > 0 && (
          <span className="bell__count" aria-hidden="true" data-testid="bell-count">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div
          ref={panelRef}
          id={panelId}
          className="bell__panel"
          role="dialog"
          aria-labelledby={titleId}
          tabIndex={-1}
        >
          <div className="bell__header">
            <h2 id={titleId} className="bell__title">
              Notifications
            </h2>
            <button
              type="button"
              className="bell__read-all"
              disabled={unread === 0}
              onClick={() => void read({ all: true })}
            >
              <CheckCheck aria-hidden="true" size={16} />
              Mark all read
            </button>
          </div>
          {isLoading ? (
            <p className="bell__empty">Loading…</p>
          ) : !data ? (
            <p className="bell__empty">
              {isError ? 'Notifications could not be loaded.' : 'No notifications'}
            </p>
          ) : data.items.length === 0 ? (
            <p className="bell__empty">You're all caught up.</p>
          ) : (
            <ul className="bell__list" aria-label="Inbox">
              {data.items.map((n) => (
                <li key={n.id}>
                  <Link
                    to={n.link}
                    className={n.readAt === null ? 'bell__item bell__item--unread' : 'bell__item'}
                    onClick={() => openItem(n)}
                  >
                    {n.readAt === null && <span className="sr-only">Unread: </span>}
                    <span className="bell__item-title">{n.title}</span>
                    {n.body && <span className="bell__item-body">{n.body}</span>}
                    <time className="bell__item-time" dateTime={n.updatedAt}>
                      {formatEventTime(n.updatedAt)}
                    </time>
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {data?.nextBefore && (
            <div className="bell__more">
              <Button
                variant="secondary"
                size="sm"
                loading={loadingOlder}
                onClick={() => void loadOlder(data.nextBefore!)}
              >
                Load more
              </Button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
