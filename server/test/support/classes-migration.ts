import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { JOIN_CODE_ALPHABET } from '@classwave/shared';
import { applyMigration, applyMigrationsBefore, type Query } from './migrations.js';

export type { Query };

/**
 * The classes migration (0002) on a database that already has data: every course gets a code of the
 * alphabet, and every student who submitted to a course becomes its active member.
 * Applies 0000–0001, writes data as it stood before classes, applies 0002 and checks the result. */
export async function migrateWithData(query: Query) {
  await applyMigrationsBefore(query, '0002');
  const [teacher, ada, ben, cy] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const people = [
    [teacher, 'teacher'],
    [ada, 'student'],
    [ben, 'student'],
    [cy, 'student'],
  ];
  for (const [id, role] of people) {
    await query(`insert into users (id, email, password_hash) values ('${id}', '${id}@x.test', 'h')`);
    await query(`insert into profiles (id, full_name, role) values ('${id}', 'P', '${role}')`);
  }
  const [math, art, empty] = [randomUUID(), randomUUID(), randomUUID()];
  for (const c of [math, art, empty])
    await query(
      `insert into courses (id, title, description, code, teacher_id) values ('${c}', 'T', 'D', 'C1', '${teacher}')`,
    );
  const [m1, m2, a1] = [randomUUID(), randomUUID(), randomUUID()];
  for (const [id, course] of [
    [m1, math],
    [m2, math],
    [a1, art],
  ])
    await query(
      `insert into assignments (id, title, due_date, course_id) values ('${id}', 'A', now(), '${course}')`,
    );
  // Ada submitted twice in Math and once in Art, Ben once in Math, Cy never.
  for (const [a, s] of [
    [m1, ada],
    [m2, ada],
    [a1, ada],
    [m1, ben],
  ])
    await query(`insert into submissions (assignment_id, student_id, content) values ('${a}', '${s}', 'x')`);

  await applyMigration(query, '0002_classes.sql');

  const codes = await query('select join_code, join_enabled from courses');
  expect(codes).toHaveLength(3);
  for (const row of codes) {
    expect(row.join_code).toMatch(new RegExp(`^[${JOIN_CODE_ALPHABET}]{8}$`));
    expect(row.join_enabled).toBe(true);
  }
  expect(new Set(codes.map((r) => r.join_code)).size).toBe(3);
  const members = await query('select course_id, student_id, status, ended_at from course_members');
  const pairs = members.map((m) => `${m.course_id}/${m.student_id}/${m.status}`).sort();
  expect(pairs).toEqual([`${math}/${ada}/active`, `${art}/${ada}/active`, `${math}/${ben}/active`].sort());
  expect(members.every((m) => m.ended_at === null)).toBe(true);
}
