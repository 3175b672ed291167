import { ErrorCode, type MemberStatus } from '@classwave/shared';
import type { Caller } from './auth/caller.js';
import { AppError, forbidden, notFound } from './http/errors.js';

/**
 * Permission rules of the product (spec §6, DESIGN §6), one small function each. They throw the
 * AppError to answer with, so a service reads as a list of checks followed by the work.
 */

export function requireTeacher(caller: Caller, action: string): void {
  if (caller.role !== 'teacher') throw forbidden(`Only teachers can ${action}.`);
}

export function requireStudent(caller: Caller, action: string): void {
  if (caller.role !== 'student') throw forbidden(`Only students can ${action}.`);
}

/**
 * A student's standing to write to an assignment of a course (DESIGN §11): one who never joined
 * gets the assignment's 404 (it is not there for them); a former member, who knows it is, 403
 * not_a_member naming what they can no longer do.
 */
export function requireActiveMember<T extends { membership: MemberStatus | null; assigned?: boolean }>(
  target: T | undefined,
  action: string,
): asserts target is T {
  if (!target?.membership) throw notFound('Assignment not found.');
  // Scheduled, or not for them (DESIGN §20): to them it does not exist.
  if (target.membership === 'active' && target.assigned === false) throw notFound('Assignment not found.');
  if (target.membership !== 'active')
    throw new AppError(
      403,
      ErrorCode.notAMember,
      `You are no longer a member of this course, so you cannot ${action}.`,
    );
}

/** The row, or the 404 naming what was not found (`found(row, 'Course')`): it throws, so never `throw found(…)`. */
export function found<T>(row: T | undefined, what: string): T {
  if (row === undefined) throw notFound(`${what} not found.`);
  return row;
}
