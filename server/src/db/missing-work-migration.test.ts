import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { applyMigration, applyMigrationsBefore, seedClass } from '../../test/support/migrations.js';

describe('migration 0011 (missing work) on existing data', () => {
  // A fresh PGlite (not the migrated template copy the other tests use) starts slowly on a busy machine.
  it(
    'keeps submissions as they were, counts missing work as zero in every course, and takes a grade with no submission only',
    { timeout: 120_000 },
    async () => {
      const db = new PGlite();
      const query = async (text: string) => (await db.query<Record<string, unknown>>(text)).rows;
      try {
        await applyMigrationsBefore(query, '0011');
        const { ada, ben, course } = await seedClass(query);
        const assignment = randomUUID();
        await query(
          `insert into assignments (id, title, due_date, course_id) values ('${assignment}', 'A', now(), '${course}')`,
        );
        await query(
          `insert into submissions (assignment_id, student_id, content, submitted_at) values ('${assignment}', '${ada}', 'x', '2026-01-02T03:04:05Z')`,
        );

        await applyMigration(query, '0011_missing_work.sql');

        expect(await query('select content, submitted_at from submissions')).toEqual([
          { content: 'x', submitted_at: new Date('2026-01-02T03:04:05Z') },
        ]);
        expect(await query('select missing_counts_as_zero from courses')).toEqual([
          { missing_counts_as_zero: true },
        ]);
        // No submission and no grade is no row at all; an answer without a time is no submission either.
        await expect(
          query(
            `insert into submissions (assignment_id, student_id, content, submitted_at) values ('${assignment}', '${ben}', null, null)`,
          ),
        ).rejects.toThrow(/submissions_missing_work_check/);
        await expect(
          query(
            `insert into submissions (assignment_id, student_id, content, submitted_at, grade) values ('${assignment}', '${ben}', 'y', null, 3)`,
          ),
        ).rejects.toThrow(/submissions_missing_work_check/);
        await query(
          `insert into submissions (assignment_id, student_id, content, submitted_at, grade) values ('${assignment}', '${ben}', null, null, 0)`,
        );
        expect(await query(`select grade from submissions where student_id = '${ben}'`)).toEqual([
          { grade: 0 },
        ]);
      } finally {
        await db.close();
      }
    },
  );
});
