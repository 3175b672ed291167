import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * "This student is assigned this assignment" (DESIGN §20), the one condition every student-side
 * read of an assignment adds to "an active member of its course": it is published, and it is for
 * the whole class, or names the student, or the student handed work in to it before they were
 * left out (their work and grade stay theirs to see; a student never told of it sees nothing).
 * One text, for the hand-written prepared statements (`assignedText`) and for Drizzle
 * (`assignedTo`: the same text with the student bound), so the two cannot drift apart.
 *
 * Their effective due date is the other rule here: their extension's, else the assignment's.
 */

const studentSql = (student: string | SQL | AnyPgColumn): SQL =>
  typeof student === 'string' ? sql`${student}::uuid` : sql`${student}`;

/** Stands for the student's expression in the text, where the Drizzle spelling binds it. */
const STUDENT = '\u0000student\u0000';
/** The text spelling with the student bound as a parameter (or a column). */
const bound = (text: string, student: string | SQL | AnyPgColumn): SQL =>
  sql.join(
    text.split(STUDENT).map((part) => sql.raw(part)),
    studentSql(student),
  );

/** SQL text: `s` (`$1`, `m.student_id`) is assigned the assignment aliased `a`. */
export function assignedText(a: string, s: string): string {
  return `(${a}.published_at is not null and (${a}.assignees is null
    or ${s} = any(${a}.assignees)
    or exists (select 1 from submissions kept where kept.assignment_id = ${a}.id
      and kept.student_id = ${s} and kept.submitted_at is not null)))`;
}

/** SQL true where `student` (an id, or a column) is assigned the `assignments` row of the query (assignedOn, unaliased). */
export function assignedTo(student: string | SQL | AnyPgColumn): SQL {
  return assignedOn('"assignments"', student);
}

/** SQL text of `s`'s extension's due date on the assignment aliased `a`: null when they have none. */
export function extensionText(a: string, s: string): string {
  return `(select x.due_date from assignment_extensions x
    where x.assignment_id = ${a}.id and x.student_id = ${s})`;
}

/** SQL text of `s`'s due date on the assignment aliased `a`: their extension's, else the assignment's. */
export function effectiveDueText(a: string, s: string): string {
  return `coalesce(${extensionText(a, s)}, ${a}.due_date)`;
}

/** SQL of `student`'s due date on the `assignments` row of the query (effectiveDueOn, unaliased). */
export function effectiveDue(student: string | SQL | AnyPgColumn): SQL<Date> {
  return effectiveDueOn('"assignments"', student) as SQL<Date>;
}

/** SQL true where `student` is assigned the assignment `assignmentId` (a query without `assignments` in it). */
export function assignedToOne(student: string | SQL | AnyPgColumn, assignmentId: string): SQL {
  return sql`exists (select 1 from assignments where assignments.id = ${assignmentId}::uuid
    and ${assignedTo(student)})`;
}

/**
 * `assignedText` over the alias `a` of a hand-written statement, with `student` bound (a
 * statement written with Drizzle's `sql`, not a prepared text).
 */
export function assignedOn(a: string, student: string | SQL | AnyPgColumn): SQL {
  return bound(assignedText(a, STUDENT), student);
}

/** `effectiveDueText` over the alias `a` with `student` bound, as `spell` writes it (e.g. isoText). */
export function effectiveDueOn(
  a: string,
  student: string | SQL | AnyPgColumn,
  spell: (expression: string) => string = (e) => e,
): SQL {
  return bound(spell(effectiveDueText(a, STUDENT)), student);
}

/** `extensionText` over the alias `a` with `student` bound. */
export function extensionOn(a: string, student: string | SQL | AnyPgColumn): SQL {
  return bound(extensionText(a, STUDENT), student);
}
