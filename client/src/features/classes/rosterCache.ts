import type { CourseMember, MemberStatus } from '@classwave/shared';

/** A roster row, as GET /api/courses/:id/members answers it. */
export type RosterMember = CourseMember;
export type RosterStatus = MemberStatus;

/** Active members first, then by name: the order the roster shows (and the server answers in). */
const rosterOrder = (a: RosterMember, b: RosterMember) =>
  Number(b.status === 'active') - Number(a.status === 'active') ||
  a.student.fullName.localeCompare(b.student.fullName) ||
  a.student.id.localeCompare(b.student.id);

/**
 * Adds a roster row or replaces the student's existing one (a student has one row per course, whose
 * status changes as they join, leave, are removed or restored). Mutates `list` (an Immer draft).
 */
export function upsertMember(list: RosterMember[], member: RosterMember): void {
  const index = list.findIndex((row) => row.student.id === member.student.id);
  if (index === -1) list.push(member);
  else list[index] = member;
  list.sort(rosterOrder);
}
