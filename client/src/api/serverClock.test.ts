import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAssignment } from '../test/factories';
import { renderAssignments } from '../test/renderRoute';
import { noteServerDate, resetServerClock, serverClockOffset, serverNow } from './serverClock';

const HOUR = 3600_000;

afterEach(() => {
  resetServerClock();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the tab's estimate of the server's clock", () => {
  it('reads the offset from Date headers to within a second, and narrows it with more answers', () => {
    const device = Date.parse('2026-03-01T10:00:00.000Z');
    // The server is 2 h 0 min 0.4 s ahead; answers take 100 ms.
    const trueOffset = 2 * HOUR + 400;
    for (let i = 0; i < 6; i++) {
      const sent = device + i * 1337;
      const stampedAt = sent + 50 + trueOffset;
      noteServerDate(new Date(Math.floor(stampedAt / 1000) * 1000).toUTCString(), sent, sent + 100);
      expect(Math.abs(serverClockOffset() - trueOffset)).toBeLessThanOrEqual(600);
    }
    expect(Math.abs(serverClockOffset() - trueOffset)).toBeLessThanOrEqual(200);
  });

  it('starts again when the device clock jumps, and ignores answers without a usable date', () => {
    noteServerDate(
      'Sun, 01 Mar 2026 12:00:00 GMT',
      Date.parse('2026-03-01T10:00:00Z'),
      Date.parse('2026-03-01T10:00:00.100Z'),
    );
    expect(Math.round(serverClockOffset() / HOUR)).toBe(2);
    // Someone sets the device clock right: now the clocks agree.
    noteServerDate(
      'Sun, 01 Mar 2026 12:05:00 GMT',
      Date.parse('2026-03-01T12:05:00Z'),
      Date.parse('2026-03-01T12:05:00.100Z'),
    );
    expect(Math.abs(serverClockOffset())).toBeLessThan(1000);
    noteServerDate('not a date', 0, 1);
    noteServerDate(null, 0, 1);
    expect(Math.abs(serverClockOffset())).toBeLessThan(1000);
  });
});

describe('statuses on a device whose clock is wrong', () => {
  const server = Date.parse('2026-03-01T12:00:00.000Z');

  it.each([
    { name: 'two hours slow', device: server - 2 * HOUR, due: server - HOUR, badge: 'Missing' },
    { name: 'two hours fast', device: server + 2 * HOUR, due: server + HOUR, badge: 'Active' },
  ])('follow the server when the device is $name', async ({ device, due, badge }) => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.setSystemTime(device);
    renderAssignments('student', {
      'GET /api/assignments': () => ({
        // The server stamps its answers with its own time, as every HTTP server does.
        headers: { date: new Date(server + (Date.now() - device)).toUTCString() },
        body: [createAssignment({ title: 'Essay', dueDate: new Date(due).toISOString(), status: null })],
      }),
    });
    const card = await screen.findByRole('article', { name: 'Essay' });
    await vi.waitFor(() => expect(card.querySelector('.work-status')?.textContent).toBe(badge));
    expect(Math.abs(serverNow().getTime() - server)).toBeLessThan(5000);
  });
});
