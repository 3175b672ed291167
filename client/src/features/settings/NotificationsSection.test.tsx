import type { NotificationSettings } from '@classwave/shared';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, type Reply } from '../../test/api';
import { findToast } from '../../test/renderWithProviders';
import { renderRoute } from '../../test/renderRoute';
import { browserTimeZone } from './NotificationsSection';

afterEach(() => {
  vi.unstubAllGlobals();
});

const saved = (overrides: Partial<NotificationSettings> = {}): NotificationSettings => ({
  quietHours: { enabled: false, start: '22:30', end: '06:00', timeZone: 'UTC' },
  email: true,
  ...overrides,
});

function renderSettings(
  settings: NotificationSettings,
  put: (body: unknown) => Reply = (body) => ({ body }),
) {
  return renderRoute('/settings', 'student', {
    'GET /api/me/sessions': { body: { sessions: [] } },
    'GET /api/me/notification-settings': { body: settings },
    'PUT /api/me/notification-settings': ({ body }) => put(body),
  });
}

describe('Settings: Notifications', () => {
  it("turns quiet hours on at 21:00–07:00 in the browser's zone and saves them with the e-mail switch", async () => {
    const { user, calls } = renderSettings(saved());
    const quiet = await screen.findByRole('switch', { name: 'Quiet hours' });
    expect(quiet).toHaveAttribute('aria-checked', 'false');
    expect(screen.getByLabelText('From')).toBeDisabled();
    await user.click(quiet);
    expect(quiet).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByLabelText('From')).toHaveValue('21:00');
    expect(screen.getByLabelText('Until')).toHaveValue('07:00');
    expect(screen.getByLabelText('Time zone')).toHaveValue(browserTimeZone());
    await user.click(screen.getByRole('switch', { name: /E-mail me reminders/ }));
    await user.click(screen.getByRole('button', { name: 'Save notification settings' }));
    expect(await findToast('Notification settings saved.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      quietHours: { enabled: true, start: '21:00', end: '07:00', timeZone: browserTimeZone() },
      email: false,
    });
  });

  it('keeps the hours and zone already chosen, and saves a changed zone', async () => {
    const { user, calls } = renderSettings(
      saved({ quietHours: { enabled: true, start: '22:30', end: '06:00', timeZone: 'Asia/Tokyo' } }),
    );
    expect(await screen.findByLabelText('From')).toHaveValue('22:30');
    expect(screen.getByLabelText('Time zone')).toHaveValue('Asia/Tokyo');
    await user.selectOptions(screen.getByLabelText('Time zone'), 'Europe/Paris');
    await user.click(screen.getByRole('button', { name: 'Save notification settings' }));
    await findToast('Notification settings saved.');
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      quietHours: { enabled: true, start: '22:30', end: '06:00', timeZone: 'Europe/Paris' },
    });
  });

  it("shows the server's refusal", async () => {
    const { user } = renderSettings(saved(), () =>
      apiError(400, 'timeZone is not a known IANA zone', 'validation'),
    );
    await user.click(await screen.findByRole('button', { name: 'Save notification settings' }));
    expect(await findToast('timeZone is not a known IANA zone')).toBeInTheDocument();
  });
});
