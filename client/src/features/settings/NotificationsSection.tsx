import { DEFAULT_QUIET_HOURS, type NotificationSettings } from '@classwave/shared';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { Input } from '../../components/Input';
import { Select } from '../../components/Select';
import { Switch } from '../../components/Switch';
import {
  useGetNotificationSettingsQuery,
  useUpdateNotificationSettingsMutation,
} from '../notifications/notificationsApi';
import { browserTimeZone } from '../notifications/timeZone';
import { SettingsSection } from './SettingsSection';

// The browser's own zone: where quiet hours are read unless the user picks another.
export { browserTimeZone };

function zoneChoices(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes(current) ? zones : [current, ...zones];
}

/**
 * The form's starting point: the saved settings, except that hours never turned on start from
 * 21:00–07:00 in the browser's zone (a zone nobody chose should not be the one used).
 */
export function initialDraft(saved: NotificationSettings): NotificationSettings {
  if (saved.quietHours.enabled) return saved;
  return { ...saved, quietHours: { ...saved.quietHours, timeZone: browserTimeZone() } };
}

/** Quiet hours (opt-in, DESIGN §14) and e-mail for timed notifications. */
export function NotificationsSection() {
  const { data, isError } = useGetNotificationSettingsQuery();
  const [save, { isLoading }] = useUpdateNotificationSettingsMutation();
  const [draft, setDraft] = useState<NotificationSettings | null>(null);

  useEffect(() => {
    if (data) setDraft(initialDraft(data));
  }, [data]);

  const setHours = (change: Partial<NotificationSettings['quietHours']>) =>
    setDraft((d) => d && { ...d, quietHours: { ...d.quietHours, ...change } });

  async function submit(settings: NotificationSettings) {
    try {
      await save(settings).unwrap();
      toast.success('Notification settings saved.', { id: 'notification-settings' });
    } catch (error) {
      toast.error(apiErrorMessage(error, 'We could not save your notification settings.'));
    }
  }

  return (
    <SettingsSection
      id="notifications"
      title="Notifications"
      description="Everything reaches your inbox at once. Quiet hours only hold the alerts: pop-ups and e-mail wait until they end."
    >
      {!draft ? (
        <p className="settings-section__description">
          {isError ? 'Your notification settings could not be loaded.' : 'Loading…'}
        </p>
      ) : (
        <form
          className="settings-form"
          onSubmit={(event) => {
            event.preventDefault();
            void submit(draft);
          }}
        >
          <Switch
            label="Quiet hours"
            checked={draft.quietHours.enabled}
            onChange={(enabled) =>
              setHours(
                enabled && !data?.quietHours.enabled
                  ? { enabled, start: DEFAULT_QUIET_HOURS.start, end: DEFAULT_QUIET_HOURS.end }
                  : { enabled },
              )
            }
          />
          <fieldset className="settings-quiet" disabled={!draft.quietHours.enabled}>
            <legend className="sr-only">Quiet hours</legend>
            <Input
              type="time"
              label="From"
              required
              value={draft.quietHours.start}
              onChange={(event) => setHours({ start: event.target.value })}
            />
            <Input
              type="time"
              label="Until"
              required
              value={draft.quietHours.end}
              onChange={(event) => setHours({ end: event.target.value })}
            />
            <Select
              label="Time zone"
              containerClassName="settings-quiet__zone"
              value={draft.quietHours.timeZone}
              onChange={(event) => setHours({ timeZone: event.target.value })}
            >
              {zoneChoices(draft.quietHours.timeZone).map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replace(/_/g, ' ')}
                </option>
              ))}
            </Select>
          </fieldset>
          <Switch
            label="E-mail me reminders (due soon, closed)"
            checked={draft.email}
            onChange={(email) => setDraft((d) => d && { ...d, email })}
          />
          <div className="settings-form__actions">
            <Button type="submit" loading={isLoading}>
              Save notification settings
            </Button>
          </div>
        </form>
      )}
    </SettingsSection>
  );
}
