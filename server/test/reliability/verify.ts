/**
 * After the storm: what the API holds and what every tab ends up showing, checked against the
 * ledger. Each problem comes back as a sentence; an empty list means nothing acknowledged was lost,
 * doubled or changed, and nothing appeared that no one asked for.
 */
import type { Assignment, LiveEvent, Submission } from '@classwave/shared';
import { ok } from './http.js';
import type { LiveClient } from './live-client.js';
import type { Ledger, School } from './workload.js';

/** Checks the stored state through the teachers' own reads. */
export async function checkStored(base: string, school: School, ledger: Ledger): Promise<string[]> {
  const problems: string[] = [];
  const present = new Set<string>();
  const pairs = new Set<string>();
  for (const teacher of school.teachers) {
    const list = await ok<Assignment[]>(base, 'GET', '/api/assignments', { token: teacher.token });
    const mine = ledger.assignments.filter((a) => a.course.teacher === teacher);
    for (const a of mine) {
      const copies = list.filter((x) => x.title === a.title && x.courseId === a.course.id);
      if (a.acked && (copies.length !== 1 || copies[0]!.id !== a.acked.id))
        problems.push(`acknowledged assignment ${a.title} is stored ${copies.length} times`);
      if (!a.acked && copies.length > 1) problems.push(`unanswered assignment ${a.title} is stored twice`);
    }
    for (const x of list)
      if (!mine.some((a) => a.title === x.title && a.course.id === x.courseId))
        problems.push(`assignment ${x.title} (${x.id}) was never asked for`);

    for (const assignment of list) {
      const rows = await ok<Submission[]>(base, 'GET', `/api/assignments/${assignment.id}/submissions`, {
        token: teacher.token,
      });
      for (const row of rows) problems.push(...checkRow(row, ledger, present, pairs));
    }
  }
  for (const w of ledger.submissions.values()) {
    const id = w.acked?.id ?? w.landedId;
    if (id && !present.has(id))
      problems.push(`${w.acked ? 'acknowledged' : 'landed'} submission ${id} is missing`);
  }
  return problems;
}

/** One stored submission against what was sent for it. */
function checkRow(row: Submission, ledger: Ledger, present: Set<string>, pairs: Set<string>): string[] {
  const problems: string[] = [];
  const pair = `${row.studentId}:${row.assignmentId}`;
  const write = ledger.submissions.get(pair);
  if (!write) return [`submission ${row.id} by ${row.studentId} was never sent`];
  if (pairs.has(pair)) problems.push(`${write.student.email} has two submissions to ${row.assignmentId}`);
  pairs.add(pair);
  const expectedId = write.acked?.id ?? write.landedId;
  if (present.has(row.id)) problems.push(`submission ${row.id} is listed twice`);
  present.add(row.id);
  if (expectedId && row.id !== expectedId) problems.push(`submission ${expectedId} has a twin ${row.id}`);
  if (row.content !== write.content) problems.push(`submission ${row.id} has other content`);
  if (write.acked && row.submittedAt !== write.acked.submittedAt)
    problems.push(`submission ${row.id} changed its time`);
  const g = ledger.grades.get(row.id);
  if (g?.acked) {
    if (row.grade !== g.grade || row.feedback !== g.feedback || row.gradedAt !== g.acked.gradedAt)
      problems.push(`acknowledged grade of ${row.id} reads ${row.grade} at ${row.gradedAt}`);
  } else if (row.grade !== null && row.grade !== g?.grade) {
    problems.push(`submission ${row.id} carries a grade nobody sent: ${row.grade}`);
  }
  return problems;
}

/**
 * Checks one tab's events: each acknowledged write in its audience shown exactly once (one event,
 * whatever route it came by), and no write shown twice under two event ids.
 */
export function checkShown(client: LiveClient, who: string, expected: Expected[]): string[] {
  const problems: string[] = [];
  if (client.resyncs > 0) problems.push(`${who} was told to resync ${client.resyncs} times`);
  if (client.refusals.length > 0)
    problems.push(`${who} was refused on reconnecting: ${client.refusals.join(', ')}`);
  const events = [...client.events.values()];
  for (const e of expected) {
    const matches = events.filter((ev) => ev.type === e.type && e.matches(ev));
    if (matches.length !== 1) problems.push(`${who} shows ${e.what} ${matches.length} times`);
  }
  const keys = new Map<string, number>();
  for (const ev of events) {
    const data = ev.data as { id?: string; gradedAt?: string | null; updatedAt?: string; count?: number };
    // Membership events carry no id of their own (and this pass makes none while tabs watch).
    if (data.id === undefined) continue;
    // A regrade is a new version of its submission; a batched notification that grew (same id,
    // DESIGN §14) is a new version of its entry.
    const version =
      ev.type === 'submission:graded'
        ? data.gradedAt
        : ev.type === 'notification:created'
          ? `${data.updatedAt}:${data.count}`
          : '';
    const key = `${ev.type}:${data.id}:${version}`;
    keys.set(key, (keys.get(key) ?? 0) + 1);
  }
  for (const [key, n] of keys) if (n > 1) problems.push(`${who} got ${key} under ${n} event ids`);
  return problems;
}

export interface Expected {
  type: LiveEvent['type'];
  what: string;
  matches(event: LiveEvent): boolean;
}

/** The events a person's tabs must end up showing: their audience's share of the acknowledged writes. */
export function expectedFor(personId: string, role: 'student' | 'teacher', ledger: Ledger): Expected[] {
  const acked = ledger.acknowledged();
  const mine = (studentId: string, teacherId: string) =>
    role === 'student' ? studentId === personId : teacherId === personId;
  const dataOf = (ev: LiveEvent) =>
    ev.data as { id: string; grade?: number | null; gradedAt?: string | null };
  return [
    ...acked.assignments
      .filter((a) => role === 'student' || a.course.teacher.id === personId)
      .map((a) => ({
        type: 'assignment:created' as const,
        what: `assignment ${a.acked!.id}`,
        matches: (ev: LiveEvent) => dataOf(ev).id === a.acked!.id,
      })),
    ...acked.submissions
      .filter((w) => mine(w.student.id, w.course.teacher.id))
      .map((w) => ({
        type: 'submission:created' as const,
        what: `submission ${w.acked!.id}`,
        matches: (ev: LiveEvent) => dataOf(ev).id === w.acked!.id,
      })),
    ...acked.grades
      .filter((g) => mine(g.write.student.id, g.write.course.teacher.id))
      .map((g) => ({
        type: 'submission:graded' as const,
        what: `the grade of ${g.submissionId} at ${g.acked!.gradedAt}`,
        matches: (ev: LiveEvent) =>
          dataOf(ev).id === g.submissionId &&
          dataOf(ev).gradedAt === g.acked!.gradedAt &&
          dataOf(ev).grade === g.grade,
      })),
  ];
}

/**
 * For a tab that misses an expected event: the event's id (as another tab got it), and this tab's
 * catch-ups around it, to tell a lost live event from a replay that skipped it.
 */
export function diagnose(client: LiveClient, expected: Expected[], others: LiveClient[]): string[] {
  const events = [...client.events.values()];
  const notes: string[] = [];
  for (const e of expected) {
    if (events.some((ev) => ev.type === e.type && e.matches(ev))) continue;
    const elsewhere = others
      .flatMap((o) => [...o.events.values()])
      .find((ev) => ev.type === e.type && e.matches(ev));
    const id = elsewhere?.id;
    const around = client.catchUps
      .filter((c) => id === undefined || Math.abs(c.after - id) < 200)
      .map((c) => `after ${c.after} -> lastId ${c.lastId}, ${c.ids.length} events`);
    notes.push(
      `${e.what}: event id ${id ?? 'unknown'}; failed catch-ups: ${client.failedCatchUps.join(' | ') || 'none'}; neighbours held: ${
        id === undefined
          ? '-'
          : [id - 2, id - 1, id + 1, id + 2].filter((n) => client.events.has(n)).join(',')
      }; catch-ups: ${around.join(' | ') || 'none'}`,
    );
    if (notes.length >= 5) break;
  }
  return notes;
}
