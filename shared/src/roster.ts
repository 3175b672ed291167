import { Type, type Static } from 'typebox';

/** Rows a roster import may hold (a whole school year's export of one class is far less). */
export const ROSTER_MAX_ROWS = 10_000;
/** Bytes of CSV a roster import may send (each file, and the request). */
export const ROSTER_MAX_BYTES = 5 * 1024 * 1024;

const CsvText = (description: string) => Type.String({ maxLength: ROSTER_MAX_BYTES, description });

/**
 * POST /api/courses/:id/roster-import (DESIGN §20), as JSON: a plain CSV's text (`csv`: columns
 * name and e-mail), or a OneRoster 1.2 export's `users.csv` and `enrollments.csv`, both texts in
 * one body (two files as one request: nothing half-sent, one size limit, one schema). A plain CSV
 * may also be sent as the body itself with `Content-Type: text/csv`.
 */
export const RosterImportBody = Type.Union([
  Type.Object(
    {
      csv: CsvText(
        'The CSV text: a header naming name (or full name) and e-mail columns, then one student a row.',
      ),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      users: CsvText('OneRoster 1.2 users.csv: sourcedId, givenName, familyName, email, role.'),
      enrollments: CsvText('OneRoster 1.2 enrollments.csv: classSourcedId, userSourcedId, role.'),
      classSourcedId: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 255,
          description: 'Which class of the export is this course; needed when the export holds several.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
]);
export type RosterImportBody = Static<typeof RosterImportBody>;

const RosterPerson = Type.Object(
  {
    email: Type.String(),
    fullName: Type.String({ description: 'As the file has it: text, never a formula.' }),
    sourcedId: Type.Union([Type.String(), Type.Null()], { description: "OneRoster's id of the person." }),
  },
  { additionalProperties: false },
);

/** What an import would do (dry run) or did: the file against the course's students and invitations. */
export const RosterImportResult = Type.Object(
  {
    dryRun: Type.Boolean(),
    /** Not in the course and not invited yet: committing mails each an invitation to join. */
    add: Type.Array(RosterPerson),
    /** Invited before under another name or address: committing updates the invitation. */
    update: Type.Array(Type.Intersect([RosterPerson, Type.Object({ previousName: Type.String() })])),
    /** In the course (or invited) but not in the file: listed, never removed by an import. */
    remove: Type.Array(
      Type.Intersect([
        RosterPerson,
        Type.Object({ status: Type.Union([Type.Literal('member'), Type.Literal('invited')]) }),
      ]),
    ),
    /** In the file and already in the course or invited as the file says. */
    unchanged: Type.Integer(),
    /** An address (or sourcedId) on more than one row: the first row counts. */
    duplicates: Type.Array(Type.Object({ email: Type.String(), rows: Type.Array(Type.Integer()) })),
    /** Rows left out, and why (no e-mail, not an address, not a student). Row 1 is the header. */
    skipped: Type.Array(Type.Object({ row: Type.Integer(), reason: Type.String() })),
  },
  { additionalProperties: false },
);
export type RosterImportResult = Static<typeof RosterImportResult>;
