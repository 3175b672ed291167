import { and, eq, lt, or, type AnyColumn, type SQL } from 'drizzle-orm';
import { ErrorCode } from '@classwave/shared';
import { AppError } from '../http/errors.js';

/**
 * The `before` of a page (DESIGN §19): where the previous page ended, as the time and id of its
 * last row. Opaque to clients (base64url), so its form can change; anything that does not decode
 * to a time and an id is refused with 400 naming `before`, never passed to the database.
 */
export interface Cursor {
  at: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const encodeCursor = (at: Date, id: string): string =>
  Buffer.from(`${at.toISOString()}|${id}`, 'utf8').toString('base64url');

/** The cursor in `before`, or undefined without one; 400 invalid_cursor when it is not one of ours. */
export function parseCursor(before: string | undefined): Cursor | undefined {
  if (before === undefined) return undefined;
  const refused = new AppError(
    400,
    ErrorCode.invalidCursor,
    'querystring.before is not a cursor of this list: pass the nextBefore of the page before, or nothing for the newest page.',
  );
  if (!/^[A-Za-z0-9_-]+$/.test(before)) throw refused;
  const [iso = '', id = '', ...rest] = Buffer.from(before, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !ISO.test(iso) || !UUID.test(id)) throw refused;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime()) || at.toISOString() !== iso) throw refused;
  return { at, id };
}

/**
 * Rows older than the cursor in a list ordered newest first by (`at`, `id`): the same time and a
 * smaller id breaks a tie. Undefined (no condition) for the first page.
 */
export function olderThan(cursor: Cursor | undefined, at: AnyColumn, id: AnyColumn): SQL | undefined {
  return cursor ? or(lt(at, cursor.at), and(eq(at, cursor.at), lt(id, cursor.id))) : undefined;
}
