import { sql } from 'drizzle-orm';
import type { LessonAnswerValue } from '@classwave/shared';
import type { Tx } from '../db/client.js';
import { lessonAnswers } from '../db/schema.js';
import { rowsOf } from '../db/rows.js';
import type { Tally } from './views.js';

/**
 * Stores a student's answer (the last one counts) and answers the question's tally with it, in one
 * statement (issue 30: a write in at most three round trips). The statement's snapshot cannot see
 * its own insert, so it reads the tally and the student's previous answer from the same snapshot,
 * and the new answer is moved from one to the other here: the tally as that snapshot plus this answer.
 */
export async function saveAnswer(
  tx: Tx,
  a: { questionId: string; studentId: string; answer: LessonAnswerValue; now: Date },
): Promise<Tally> {
  const upsert = tx
    .insert(lessonAnswers)
    .values({ questionId: a.questionId, studentId: a.studentId, answer: a.answer, answeredAt: a.now })
    .onConflictDoUpdate({
      target: [lessonAnswers.questionId, lessonAnswers.studentId],
      set: { answer: a.answer, answeredAt: a.now },
    });
  const result = await tx.execute(sql`with saved as ${upsert}
    select (select ${lessonAnswers.answer} from ${lessonAnswers}
        where ${lessonAnswers.questionId} = ${a.questionId} and ${lessonAnswers.studentId} = ${a.studentId}) as previous,
      coalesce((select json_agg(json_build_object('answer', t.answer, 'count', t.n))
        from (select ${lessonAnswers.answer} as answer, count(*)::int as n from ${lessonAnswers}
          where ${lessonAnswers.questionId} = ${a.questionId} group by ${lessonAnswers.answer}) t), '[]'::json) as tally`);
  const [row] = rowsOf<{ previous: LessonAnswerValue | null; tally: Tally | string }>(result);
  const parse = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
  const previous = row?.previous === null || row?.previous === undefined ? null : parse(row.previous);
  const tally = parse(row?.tally ?? []).map((t) => ({ answer: t.answer, count: Number(t.count) }));
  return moveAnswer(tally, previous, a.answer);
}

/** The tally with one student's answer moved from `previous` (none: a first answer) to `answer`. */
export function moveAnswer(
  tally: Tally,
  previous: LessonAnswerValue | null,
  answer: LessonAnswerValue,
): Tally {
  const out = tally.map((t) => ({ ...t }));
  if (previous !== null) {
    const from = out.find((t) => t.answer === previous);
    if (from) from.count -= 1;
  }
  const to = out.find((t) => t.answer === answer);
  if (to) to.count += 1;
  else out.push({ answer, count: 1 });
  return out.filter((t) => t.count > 0);
}
