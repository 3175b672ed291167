import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_FOLDER } from '../../src/db/client.js';

/** For the tests of one migration on data written before it: SQL applied by hand, file by file. */
export type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

/** Applies one migration file (e.g. `0008_returned_grades.sql`), statement by statement. */
export async function applyMigration(query: Query, file: string): Promise<void> {
  const statements = readFileSync(path.join(MIGRATIONS_FOLDER, file), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const statement of statements) await query(statement);
}

/** Applies every migration numbered below `number` (e.g. '0008'), in order: the schema before it. */
export async function applyMigrationsBefore(query: Query, number: string): Promise<void> {
  const files = readdirSync(MIGRATIONS_FOLDER)
    .filter((f) => f.endsWith('.sql') && f < number)
    .sort();
  for (const file of files) await applyMigration(query, file);
}

/** A teacher, two students (Ada and Ben) and a course of the teacher's, as rows written by hand. */
export async function seedClass(
  query: Query,
): Promise<{ teacher: string; ada: string; ben: string; course: string }> {
  const [teacher, ada, ben, course] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  for (const [id, role] of [
    [teacher, 'teacher'],
    [ada, 'student'],
    [ben, 'student'],
  ]) {
    await query(`insert into users (id, email, password_hash) values ('${id}', '${id}@x.test', 'h')`);
    await query(`insert into profiles (id, full_name, role) values ('${id}', 'P', '${role}')`);
  }
  await query(
    `insert into courses (id, title, description, code, teacher_id, join_code) values ('${course}', 'T', 'D', 'C1', '${teacher}', 'ABCDEFGH')`,
  );
  return { teacher, ada, ben, course };
}
