/**
 * What both reliability scenarios start from: the real server as a child process on a fresh data
 * directory or database, a school of people signed up through the real verification mail, and one
 * open tab (a live socket) per person. Everything opened is registered for clean-up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChildServer, freePort } from './child-server.js';
import { signUp, type Person } from './http.js';
import { LiveClient } from './live-client.js';
import { checkShown, diagnose, expectedFor } from './verify.js';
import { openSchool, type Ledger, type School } from './workload.js';

/** The test's SMTP catcher (test/support/mail-catcher.ts), as far as a scenario needs it. */
export interface Mailbox {
  url: string;
  latestTo(email: string, timeoutMs?: number): Promise<{ text: string }>;
}

export interface Scenario {
  server: ChildServer;
  school: School;
  people: Person[];
  /** One tab per person, in the order of `people`. */
  tabs: LiveClient[];
}

export async function startScenario(options: {
  databaseUrl: string | undefined;
  mail: Mailbox;
  size: { teachers: number; students: number };
  cleanups: Array<() => Promise<unknown>>;
}): Promise<Scenario> {
  const { cleanups, mail } = options;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'classwave-reliability-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const server = new ChildServer({
    port: await freePort(),
    dataDir,
    databaseUrl: options.databaseUrl,
    smtpUrl: mail.url,
    // Fixed, so every restart of the server accepts the tokens the people already hold.
    jwtSecret: 'reliability-secret-that-is-long-enough-for-hs256',
  });
  cleanups.push(() => server.kill());
  await server.start();
  const base = server.url;
  const school = await openSchool(
    base,
    (role, name) => signUp(base, (email) => mail.latestTo(email, 15_000), role, name),
    options.size,
  );
  const people = [...school.teachers, ...school.students];
  const tabs = await Promise.all(
    people.map(async (p) => new LiveClient(base, p.token, await LiveClient.head(base, p.token))),
  );
  cleanups.push(async () => tabs.forEach((t) => t.close()));
  await Promise.all(tabs.map((t) => t.caughtUp()));
  return { server, school, people, tabs };
}

/**
 * Waits until every tab has reconnected and caught up, then gives live events still on their way
 * up to `timeoutMs` to arrive. Returns what some tab still does not show (and logs why, as far as
 * the tabs' catch-ups tell).
 */
export async function checkTabs(s: Scenario, ledger: Ledger, timeoutMs = 10_000): Promise<string[]> {
  await Promise.all(s.tabs.map((t) => t.caughtUp()));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const shown = s.people.flatMap((p, i) =>
      checkShown(s.tabs[i]!, p.email, expectedFor(p.id, p.role, ledger)),
    );
    if (shown.length === 0) return [];
    if (Date.now() > deadline) {
      const diagnosis = s.people.flatMap((p, i) =>
        diagnose(s.tabs[i]!, expectedFor(p.id, p.role, ledger), s.tabs).map((note) => `${p.email}: ${note}`),
      );
      console.log(`missing events:\n${diagnosis.slice(0, 10).join('\n')}`);
      return shown;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** How the tabs' events first arrived: live on the socket, or in a catch-up after a reconnect. */
export function arrivals(tabs: LiveClient[]): { live: number; byReplay: number } {
  const all = tabs.flatMap((t) => [...t.arrivedBy.values()]);
  return { live: all.filter((b) => b === 'live').length, byReplay: all.filter((b) => b === 'replay').length };
}
