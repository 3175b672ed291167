import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { applyMigration, applyMigrationsBefore, seedClass } from '../../test/support/migrations.js';

describe('migration 0004 (grading) on existing data', () => {
  // A fresh PGlite (not the migrated template copy the other tests use) starts slowly on a busy machine.
  it(
    'counts grades given before it as returned (version 1, by the teacher), ungraded work as version 0',
    { timeout: 120_000 },
    async () => {
      const db = new PGlite();
      const query = async (text: string) => (await db.query<Record<string, unknown>>(text)).rows;
      try {
        await applyMigrationsBefore(query, '0004');
        const { teacher, ada, ben, course } = await seedClass(query);
        const assignment = randomUUID();
        await query(
          `insert into assignments (id, title, due_date, course_id) values ('${assignment}', 'A', now(), '${course}')`,
        );
        await query(
          `insert into submissions (assignment_id, student_id, content, grade, feedback, graded_at)
           values ('${assignment}', '${ada}', 'x', 7, 'Good', '2026-01-02T03:04:05Z')`,
        );
        await query(
          `insert into submissions (assignment_id, student_id, content) values ('${assignment}', '${ben}', 'y')`,
        );

        await applyMigration(query, '0004_grading.sql');

        const rows = await query(
          'select student_id, version, returned_at, graded_by from submissions order by version desc',
        );
        expect(rows).toEqual([
          { student_id: ada, version: 1, returned_at: new Date('2026-01-02T03:04:05Z'), graded_by: teacher },
          { student_id: ben, version: 0, returned_at: null, graded_by: null },
        ]);
        expect(await query('select grade_release, closes_at_due from assignments')).toEqual([
          { grade_release: 'auto', closes_at_due: false },
        ]);
      } finally {
        await db.close();
      }
    },
  );
});
