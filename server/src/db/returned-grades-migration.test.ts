import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { applyMigration, applyMigrationsBefore, seedClass } from '../../test/support/migrations.js';

describe('migration 0008 (returned grades) on existing data', () => {
  // A fresh PGlite (not the migrated template copy the other tests use) starts slowly on a busy machine.
  it(
    'gives students the grades returned to them before it, and nothing of a held one',
    { timeout: 120_000 },
    async () => {
      const db = new PGlite();
      const query = async (text: string) => (await db.query<Record<string, unknown>>(text)).rows;
      try {
        await applyMigrationsBefore(query, '0008');
        const { ada, ben, course } = await seedClass(query);
        const assignment = randomUUID();
        await query(
          `insert into assignments (id, title, due_date, course_id, grade_release) values ('${assignment}', 'A', now(), '${course}', 'manual')`,
        );
        // Ada's grade was returned; Ben's is held.
        await query(
          `insert into submissions (assignment_id, student_id, content, grade, feedback, graded_at, returned_at, version)
           values ('${assignment}', '${ada}', 'x', 7, 'Good', '2026-01-02T03:04:05Z', '2026-01-03T00:00:00Z', 1)`,
        );
        await query(
          `insert into submissions (assignment_id, student_id, content, grade, feedback, graded_at, version)
           values ('${assignment}', '${ben}', 'y', 5, 'Hmm', '2026-01-02T03:04:05Z', 1)`,
        );

        await applyMigration(query, '0008_returned_grades.sql');

        expect(
          await query(
            `select student_id, returned_grade, returned_feedback, returned_graded_at from submissions
             order by returned_grade nulls last`,
          ),
        ).toEqual([
          {
            student_id: ada,
            returned_grade: 7,
            returned_feedback: 'Good',
            returned_graded_at: new Date('2026-01-02T03:04:05Z'),
          },
          { student_id: ben, returned_grade: null, returned_feedback: null, returned_graded_at: null },
        ]);
      } finally {
        await db.close();
      }
    },
  );
});
