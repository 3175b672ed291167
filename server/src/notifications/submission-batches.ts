import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { inQuietHours } from '@classwave/shared';
import type { Clock } from '../clock.js';
import { isoText, txQuery, type Tx } from '../db/client.js';
import type { RecordEvent } from '../events.js';
import type { Outbox } from '../realtime/outbox.js';
import { userRoom } from '../realtime/rooms.js';
import type { JobHandler } from '../jobs/schedule.js';
import { lockText, submissionsTitleSql, WINDOW, windowTally } from './batch.js';
import { assignmentLink, notificationFromJson, settingsColumn, settingsFromJson } from './store.js';

/**
 * The teacher's "new submissions" batch is brought up to date after the submission commits, not
 * inside it (issue 15). Inside, every submission to one assignment took the batch's lock and held
 * it through its commit (a disk flush each), so a class submitting at the deadline queued one by
 * one: at 150 submissions/s to one assignment the answers took seconds and some timed out. Now the
 * submission's transaction only writes a job row of its own (no lock, no shared row), and right
 * after the commit this process applies it to the batch; the job is the net: a process that dies
 * in between leaves it pending, and the job poller applies it BATCH_NET_MS later. Applying a job
 * and marking it done are one transaction, and a job is claimed with SKIP LOCKED, so each
 * submission reaches its batch once (the batch's count is a recount anyway, batch.ts).
 */

const KIND = 'submission_batch';
/** When the poller takes over a submission this process did not apply (it died first). */
const BATCH_NET_MS = 60_000;

const keyOf = (submissionId: string) => `${KIND}:${submissionId}`;

/**
 * The job that brings the teacher's batch up to date, for the submission's own transaction: the
 * submit writes it in its one write statement (submissions/service.ts; issue 30, a write in three
 * round trips), as `scheduleJob` would.
 */
export const batchUpdateJob = (submissionId: string, now: Date) => ({
  kind: KIND,
  key: keyOf(submissionId),
  runAt: new Date(now.getTime() + BATCH_NET_MS),
  payload: { submissionId },
});

/**
 * Where a run's submissions come from: the jobs it claims itself (right after their commits: with
 * SKIP LOCKED, marked done in the same statement), or the one the poller has claimed.
 */
type Source = { claim: string[] } | { ids: string[] };

/** What a run stands on: its submissions' ends, their assignment, its teachers (locked) with their settings. */
interface Standing {
  claimed: number;
  assignment: { id: string; title: string; course_id: string } | null;
  /** The submissions that still stand, oldest first, with their students' names. */
  subs: Array<{ id: string; at: string; name: string }> | null;
  teachers: Array<{ id: string; settings: string | null }> | null;
}

/**
 * A run's first statement (issue 30: the batch in three, from two plus four per teacher): the
 * jobs claimed and marked done, the submissions that still stand with their students' names, the
 * assignment (live) with its course, and each of its teachers (owner first, then co-teachers as
 * they came: the order the withdrawal's rule locks them in) with their settings and their batch's
 * lock. The write that follows is a statement of its own, so it reads the batches after the lock.
 */
async function standing(tx: Tx, source: Source, now: Date): Promise<Standing> {
  const prefix = `${KIND}:`;
  const ids =
    'claim' in source
      ? sql`claimed as (update jobs set done_at = ${now.toISOString()}::timestamptz where id in (
            select id from jobs where key = any(${`{${source.claim.join(',')}}`}::text[]) and done_at is null
            for update skip locked)
          returning key),
        ids as (select substr(key, ${prefix.length + 1})::uuid as id from claimed)`
      : sql`ids as (select unnest(${`{${source.ids.join(',')}}`}::uuid[]) as id)`;
  // Named (issue 30): parsed and planned once per connection; the claim and the poller's ids are two texts.
  const [row] = await txQuery<{
    claimed: number;
    assignment: string | null;
    subs: string | null;
    teachers: string | null;
  }>(
    tx,
    'batch_standing',
    sql`with ${ids},
      subs as (select s.id, s.assignment_id, s.submitted_at, p.full_name from submissions s
        join profiles p on p.id = s.student_id
        -- A grade for missing work is no submission (DESIGN §17); taken-back ones are gone.
        where s.id in (select id from ids) and s.submitted_at is not null),
      a as (select a.id, a.title, a.course_id, c.teacher_id from assignments a join courses c on c.id = a.course_id
        where a.id = (select assignment_id from subs limit 1) and a.deleted_at is null)
      select ${
        // The batch is derived state and its jobs stay pending until this commits: a lost commit
        // only means the poller applies them again, so no disk flush to wait for with the locks held.
        'claim' in source ? sql`set_config('synchronous_commit', 'off', true) is null as sync, ` : sql``
      }(select count(*)::int from ids) as claimed,
        (select row_to_json(a)::text from a) as assignment,
        (select json_agg(json_build_object('id', e.id, 'at', ${sql.raw(isoText('e.submitted_at'))}, 'name', e.full_name)
            order by e.submitted_at, e.id)::text from subs e) as subs,
        -- Locked in this order, one after the other as the rows come sorted.
        (select json_agg(json_build_object('id', t.id, 'settings', ${settingsColumn(sql`t.id`)},
            'locked', ${lockText(sql`t.id::text`, sql`t.assignment_id::text`)} is null))::text
          from (select a.teacher_id as id, a.id as assignment_id, 0 as ord, null::timestamptz as since from a
            union all select ct.teacher_id, a.id, 1, ct.created_at from course_teachers ct join a on ct.course_id = a.course_id
            order by ord, since) t) as teachers`,
  );
  const parse = <T>(text: string | null | undefined) => (text ? (JSON.parse(text) as T) : null);
  return {
    claimed: row?.claimed ?? 0,
    assignment: parse(row?.assignment),
    subs: parse(row?.subs),
    teachers: parse(row?.teachers),
  };
}

/**
 * Brings each teacher's batch up to date with these submissions, in one statement: what applying
 * the first and then the last one by one did (the recount covers those between). The first joins
 * the teacher's latest batch when that started within a window before it (moving its start back
 * to it when it is earlier: submissions commit in any order), else starts one; the last joins that
 * same batch when inside its window, else starts one of its own. A batch joined is recounted and
 * names the latest student in its window; when it grew it is news again (unread, on top, alerting
 * unless in the teacher's quiet hours now). A new one counts its window, stamped with its first
 * submission's time (alerting by the quiet hours then), or with now when it already counts more.
 * Returns the rows whose count or text changed, each to be sent once.
 */
function batchWrite(
  w: {
    assignment: { id: string; title: string; course_id: string };
    first: { at: string; name: string };
    last: { at: string; name: string } | null;
    teachers: Array<{ id: string; alertNow: boolean; alertFirst: boolean; alertLast: boolean }>;
  },
  now: Date,
): SQL {
  const assignment = sql`${w.assignment.id}::uuid`;
  const title = sql`${w.assignment.title}::text`;
  const first = sql`${w.first.at}::timestamptz`;
  const at = sql`${now.toISOString()}::timestamptz`;
  const body = sql`'Latest: ' || coalesce(w1.latest, ${w.first.name}::text)`;
  // The last one's own batch, when it falls outside the first one's window: planned only if there is a last.
  const last = w.last && {
    at: sql`${w.last.at}::timestamptz`,
    tally: sql`, (${w.last.at}::timestamptz < plan.start + ${WINDOW}) is false as apart, w2.n as n2, w2.latest as latest2`,
    join: sql` cross join lateral ${windowTally(assignment, sql`${w.last.at}::timestamptz`)} w2`,
  };
  return sql`with t as (select * from jsonb_to_recordset(${JSON.stringify(w.teachers)}::jsonb)
        as x(id uuid, "alertNow" boolean, "alertFirst" boolean, "alertLast" boolean)),
      -- Each teacher's latest batch, and the start of the one the first submission goes to.
      plan as (select t.*, n.id as batch, n.created_at, n.count, n.body, n.joins,
          case when n.joins then least(n.created_at, ${first}) else ${first} end as start
        from t left join lateral (select id, created_at, count, body, created_at > ${first} - ${WINDOW} as joins
          from notifications where user_id = t.id and assignment_id = ${assignment} and kind = 'submissions'
          order by created_at desc limit 1) n on true),
      c as (select plan.*, w1.n as n1, ${body} as body1 ${last?.tally ?? sql``}
        from plan cross join lateral ${windowTally(assignment, sql`plan.start`)} w1 ${last?.join ?? sql``}),
      upd as (update notifications n set created_at = c.start, count = c.n1,
          title = ${submissionsTitleSql(sql`c.n1`, title)}, body = c.body1,
          updated_at = case when c.n1 > c.count then ${at} else n.updated_at end,
          read_at = case when c.n1 > c.count then null else n.read_at end,
          alert = case when c.n1 > c.count then c."alertNow" else n.alert end
        from c where c.joins and n.id = c.batch and (c.start <> c.created_at or c.n1 <> c.count or c.body1 <> c.body)
        returning n.*, n.count <> c.count or n.body <> c.body as news),
      ins as (insert into notifications (user_id, kind, title, body, link, course_id, assignment_id, count,
          created_at, updated_at, alert)
        select c.id, 'submissions', ${submissionsTitleSql(sql`v.n`, title)}, v.body,
          ${assignmentLink(w.assignment.id)}, ${w.assignment.course_id}::uuid, ${assignment}, v.n,
          v.at, case when v.n > 1 then ${at} else v.at end, case when v.n > 1 then c."alertNow" else v.alert end
        from c cross join lateral (values (c.joins is not true, c.start, c.n1, c.body1, c."alertFirst")
            ${last ? sql`, (c.apart, ${last.at}, c.n2, 'Latest: ' || coalesce(c.latest2, ${w.last!.name}::text), c."alertLast")` : sql``})
          as v(wanted, at, n, body, alert)
        where v.wanted and v.n > 0
        returning *)
    select row_to_json(u)::text as row from upd u where u.news
    union all select row_to_json(i)::text from ins i`;
}

/**
 * Applies submissions of one assignment to its teachers' batches in three statements however many
 * teachers it has: the standing, the write, and the outbox's events (none when nothing changed).
 */
async function apply(tx: Tx, record: RecordEvent, now: Date, source: Source): Promise<void> {
  const { claimed, assignment, subs, teachers } = await standing(tx, source, now);
  const first = subs?.[0];
  if (claimed === 0 || !assignment || !first || !teachers) return;
  const last = subs.length > 1 ? subs[subs.length - 1]! : null;
  const quiet = (at: string | Date, settings: string | null) =>
    inQuietHours(new Date(at), settingsFromJson(settings).quietHours);
  // Named as the standing is: with a last submission or without, two texts.
  const rows = await txQuery<{ row: string }>(
    tx,
    'batch_write',
    batchWrite(
      {
        assignment,
        first,
        last,
        teachers: teachers.map((t) => ({
          id: t.id,
          alertNow: !quiet(now, t.settings),
          alertFirst: !quiet(first.at, t.settings),
          alertLast: !quiet(last?.at ?? first.at, t.settings),
        })),
      },
      now,
    ),
  );
  for (const { row } of rows) {
    const note = notificationFromJson(row);
    record('notification:created', note, [userRoom((JSON.parse(row) as { user_id: string }).user_id)]);
  }
}

/** The poller's handler, for a submission no process applied right after its commit. */
export const submissionBatchJobs: Readonly<Record<string, JobHandler>> = {
  async [KIND](job, { tx, record, now }) {
    const submissionId = (job.payload as { submissionId?: unknown }).submissionId;
    if (typeof submissionId === 'string') await apply(tx, record, now, { ids: [submissionId] });
    return { done: true };
  },
};

/**
 * Right after a submission commits: its job applied to the batch in a transaction of its own. One
 * run at a time per assignment in this process; submissions arriving meanwhile are applied together
 * by the next run, so a burst costs a few runs, not one per submission.
 */
export function createSubmissionBatcher({
  outbox,
  clock,
  log,
}: {
  outbox: Outbox;
  clock: Clock;
  log: FastifyBaseLogger;
}) {
  /** Per assignment: the submissions waiting for the next run, each with its caller's resolve. */
  const queues = new Map<string, { id: string; applied: () => void }[]>();

  async function run(submissionIds: string[]): Promise<void> {
    await outbox.transaction((tx, record) =>
      apply(tx, record, clock.now(), { claim: submissionIds.map(keyOf) }),
    );
  }

  async function drain(assignmentId: string, waiting: { id: string; applied: () => void }[]) {
    while (waiting.length > 0) {
      const taken = waiting.splice(0);
      await run(taken.map((w) => w.id)).catch((err: unknown) =>
        log.warn({ err, assignmentId }, 'submissions batch not updated now; its jobs will be'),
      );
      for (const w of taken) w.applied();
    }
    queues.delete(assignmentId);
  }

  return {
    /**
     * The submission committed: resolves once its batch is up to date (or its job is left to the
     * poller). The submit's answer does not wait for it (issue 15: at 200 submissions/s the wait was
     * most of the answer's p99); the teacher hears the batch as a live event.
     */
    submitted(assignmentId: string, submissionId: string): Promise<void> {
      return new Promise<void>((applied) => {
        const waiting = queues.get(assignmentId);
        if (waiting) return void waiting.push({ id: submissionId, applied });
        const fresh = [{ id: submissionId, applied }];
        queues.set(assignmentId, fresh);
        void drain(assignmentId, fresh);
      });
    },
  };
}
export type SubmissionBatcher = ReturnType<typeof createSubmissionBatcher>;
