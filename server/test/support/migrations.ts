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
