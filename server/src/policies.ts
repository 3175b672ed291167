import type { Caller } from './auth/service.js';
import { forbidden, notFound } from './http/errors.js';

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

/** The caller must teach the course; a missing course is a 404 before anything else. */
export function requireCourseOwner<T extends { teacherId: string }>(
  caller: Caller,
  course: T | undefined,
  action: string,
): asserts course is T {
  if (!course) throw notFound('Course not found.');
  if (course.teacherId !== caller.userId) throw forbidden(`Only the course's teacher can ${action}.`);
}

export function found<T>(row: T | undefined, what: string): T {
  if (row === undefined) throw notFound(`${what} not found.`);
  return row;
}
