import { CsvError, parse } from 'csv-parse/sync';
import { ErrorCode, ROSTER_MAX_ROWS } from '@classwave/shared';
import { AppError } from '../http/errors.js';

/** One student a file names (e-mail lower-cased and trimmed: the key). */
export interface RosterEntry {
  email: string;
  fullName: string;
  sourcedId: string | null;
  /** The file's row (1 is the header), for the report. */
  row: number;
}

/** A file read: its students (first row of each address), and what was left out. */
export interface ParsedRoster {
  entries: RosterEntry[];
  duplicates: Array<{ email: string; rows: number[] }>;
  skipped: Array<{ row: number; reason: string }>;
}

const FULL_NAME_MAX_LENGTH = 100;
const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

const invalid = (message: string) => new AppError(422, ErrorCode.rosterInvalid, message);

/**
 * The CSV's records by a well-kept parser (csv-parse): quotes, embedded commas and line breaks, a
 * UTF-8 byte-order mark (Excel's), blank lines. Refuses past ROSTER_MAX_ROWS without reading on.
 */
function records(text: string, file: string): string[][] {
  let rows: string[][];
  try {
    rows = parse(text, {
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      // One row past the limit is enough to know it is over: the rest is never parsed.
      to: ROSTER_MAX_ROWS + 2,
    });
  } catch (error) {
    if (error instanceof CsvError)
      throw invalid(
        `${file} is not a CSV file we can read (line ${String(error.lines ?? '?')}: ${error.message}).`,
      );
    throw error;
  }
  if (rows.length === 0) throw invalid(`${file} is empty: it needs a header row, then one student a row.`);
  if (rows.length > ROSTER_MAX_ROWS + 1)
    throw new AppError(
      413,
      ErrorCode.rosterTooLarge,
      `${file} has more than ${ROSTER_MAX_ROWS.toLocaleString('en')} rows: import at most ${ROSTER_MAX_ROWS.toLocaleString('en')} students at a time.`,
    );
  return rows;
}

const key = (header: string) => header.toLowerCase().replace(/[\s_-]/g, '');

/** The index of the first column whose header is one of `names` (compared without case, spaces, _ or -). */
function column(header: string[], names: string[]): number {
  return header.findIndex((h) => names.includes(key(h)));
}

/** Keeps the first row of each address; later ones are reported as duplicates. */
function collect(candidates: Array<RosterEntry | { row: number; reason: string }>): ParsedRoster {
  const byEmail = new Map<string, RosterEntry>();
  const repeats = new Map<string, number[]>();
  const skipped: ParsedRoster['skipped'] = [];
  for (const c of candidates) {
    if ('reason' in c) {
      skipped.push(c);
      continue;
    }
    const first = byEmail.get(c.email);
    if (first) repeats.set(c.email, [...(repeats.get(c.email) ?? [first.row]), c.row]);
    else byEmail.set(c.email, c);
  }
  return {
    entries: [...byEmail.values()],
    duplicates: [...repeats].map(([email, rows]) => ({ email, rows })),
    skipped,
  };
}

/** One student from a row's name and address, or why the row is left out. */
function entryOf(row: number, name: string, email: string, sourcedId: string | null) {
  const address = email.trim().toLowerCase();
  if (address === '') return { row, reason: 'no e-mail address' };
  if (address.length > 254 || !EMAIL.test(address))
    return { row, reason: `"${email.slice(0, 80)}" is not an e-mail address` };
  // Text, as given: a name starting with = or + is a name (it is never put in a formula).
  const fullName = name.replace(/\s+/g, ' ').trim().slice(0, FULL_NAME_MAX_LENGTH) || address.split('@')[0]!;
  return { email: address, fullName, sourcedId, row };
}

/** A plain CSV: a header row naming a name column (or first and last names) and an e-mail column. */
export function parsePlainCsv(text: string): ParsedRoster {
  const [header, ...rows] = records(text, 'The CSV');
  const email = column(header!, ['email', 'emailaddress', 'mail']);
  const name = column(header!, ['name', 'fullname', 'studentname', 'displayname']);
  const given = column(header!, ['firstname', 'givenname']);
  const family = column(header!, ['lastname', 'familyname', 'surname']);
  if (email < 0 || (name < 0 && given < 0))
    throw invalid(
      'The first row of the CSV must name its columns: name and email (e.g. "name,email"), or first name, last name and email.',
    );
  return collect(
    rows.map((r, i) => {
      const fullName =
        name >= 0 ? (r[name] ?? '') : `${r[given] ?? ''} ${family >= 0 ? (r[family] ?? '') : ''}`;
      return entryOf(i + 2, fullName, r[email] ?? '', null);
    }),
  );
}

/**
 * OneRoster 1.2 CSV: the students enrolled (role student) in one class of `enrollments.csv`, with
 * their names and addresses from `users.csv`. The class is `classSourcedId`, or the only one there.
 */
export function parseOneRoster(users: string, enrollments: string, classSourcedId?: string): ParsedRoster {
  const [eHeader, ...eRows] = records(enrollments, 'enrollments.csv');
  const [uHeader, ...uRows] = records(users, 'users.csv');
  const eClass = column(eHeader!, ['classsourcedid']);
  const eUser = column(eHeader!, ['usersourcedid']);
  const eRole = column(eHeader!, ['role']);
  const eStatus = column(eHeader!, ['status']);
  if (eClass < 0 || eUser < 0 || eRole < 0)
    throw invalid('enrollments.csv must have the OneRoster columns classSourcedId, userSourcedId and role.');
  const uId = column(uHeader!, ['sourcedid']);
  const uEmail = column(uHeader!, ['email']);
  const uGiven = column(uHeader!, ['givenname']);
  const uFamily = column(uHeader!, ['familyname']);
  if (uId < 0 || uEmail < 0 || uGiven < 0)
    throw invalid('users.csv must have the OneRoster columns sourcedId, givenName, familyName and email.');

  const live = eRows.filter((r) => (eStatus < 0 ? true : r[eStatus] !== 'tobedeleted'));
  const classes = [...new Set(live.map((r) => r[eClass] ?? '').filter((c) => c !== ''))];
  const chosen = classSourcedId ?? (classes.length === 1 ? classes[0] : undefined);
  if (!chosen || !classes.includes(chosen))
    throw invalid(
      classSourcedId
        ? `enrollments.csv has no class "${classSourcedId.slice(0, 80)}".`
        : `enrollments.csv holds ${classes.length} classes: say which is this course (classSourcedId: ${classes.slice(0, 5).join(', ')}${classes.length > 5 ? ', …' : ''}).`,
    );
  const people = new Map(uRows.map((r, i) => [r[uId] ?? '', { r, row: i + 2 }]));
  return collect(
    live
      .map((r, i) => ({ r, row: i + 2 }))
      .filter(({ r }) => r[eClass] === chosen && r[eRole]?.toLowerCase() === 'student')
      .map(({ r, row }) => {
        const id = r[eUser] ?? '';
        const person = people.get(id);
        if (!person)
          return { row, reason: `enrollments.csv row ${row}: no user "${id.slice(0, 80)}" in users.csv` };
        const name = `${person.r[uGiven] ?? ''} ${uFamily >= 0 ? (person.r[uFamily] ?? '') : ''}`;
        return entryOf(person.row, name, person.r[uEmail] ?? '', id);
      }),
  );
}
