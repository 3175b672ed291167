import type { CourseMember, MEMBER_STATUSES } from '@classwave/shared';

/**
 * A roster row. The shared `MemberStatus` comes out as `never` (TypeBox's Static of a Union built
 * with `.map` loses the literals), so the client spells the status out from the same constant.
 */
export type RosterStatus = (typeof MEMBER_STATUSES)[number];
export type RosterMember = Omit<CourseMember, 'status'> & { status: RosterStatus };

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

/** Changes a student's status in a cached roster (before the server's row or event arrives). */
export function setMemberStatus(
  list: RosterMember[],
  studentId: string,
  status: RosterStatus,
  at: string,
): void {
  const row = list.find((candidate) => candidate.student.id === studentId);
  if (!row) return;
  row.status = status;
  row.endedAt = status === 'active' ? null : at;
  list.sort(rosterOrder);
}
