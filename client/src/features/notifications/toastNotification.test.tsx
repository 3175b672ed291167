import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createNotification } from '../../test/factories';
import { findToast, renderWithProviders } from '../../test/renderWithProviders';
import { toastNotification } from './toastNotification';

// The real toaster: the test setup loads the app's modules (and sonner) before a file could mock it.
const shown = (text: string) => screen.queryByText(text, { selector: '[data-sonner-toast] *' });
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

describe('toastNotification', () => {
  const now = Date.parse('2026-11-23T10:00:00.000Z');
  const justNow = new Date(now - 1_000).toISOString();

  it('toasts a fresh unread notification whose alert is on, once per id', async () => {
    renderWithProviders(<div />);
    const n = createNotification({ title: 'Grade returned: Essay', body: 'Biology · 9 points' });
    act(() => void expect(toastNotification(n, justNow, now)).toBe(true));
    expect(await findToast('Grade returned: Essay')).toBeInTheDocument();
    expect(await findToast('Biology · 9 points')).toBeInTheDocument();
    act(() => void toastNotification({ ...n, title: 'Grade returned: Essay (again)' }, justNow, now));
    expect(await findToast('Grade returned: Essay (again)')).toBeInTheDocument();
    expect(shown('Grade returned: Essay')).toBeNull();
  });

  it('shares one toast with member:removed for a removal', async () => {
    renderWithProviders(<div />);
    const n = createNotification({
      kind: 'removed_from_course',
      courseId: 'c1',
      title: 'You were removed from Art',
    });
    act(() => void toastNotification(n, justNow, now));
    const toast = (await findToast('You were removed from Art')).closest('[data-sonner-toast]');
    expect(toast).not.toBeNull();
  });

  it('holds the alert in quiet hours (alert false)', async () => {
    renderWithProviders(<div />);
    act(
      () =>
        void expect(
          toastNotification(createNotification({ title: 'Held', alert: false }), justNow, now),
        ).toBe(false),
    );
    await settle();
    expect(shown('Held')).toBeNull();
  });

  it('does not toast one already read, or an old event replayed after a reconnect', async () => {
    renderWithProviders(<div />);
    expect(toastNotification(createNotification({ title: 'Read', readAt: justNow }), justNow, now)).toBe(
      false,
    );
    expect(
      toastNotification(createNotification({ title: 'Old' }), new Date(now - 5 * 60_000).toISOString(), now),
    ).toBe(false);
    await settle();
    expect(shown('Read')).toBeNull();
    expect(shown('Old')).toBeNull();
  });
});
