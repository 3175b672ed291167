import { Type, type Static } from 'typebox';

export const ROLES = ['student', 'teacher'] as const;
export const Role = Type.Union([Type.Literal('student'), Type.Literal('teacher')], {
  description: 'What the user does here: students submit, teachers teach.',
});
export type Role = Static<typeof Role>;

/** Passwords: long enough to resist guessing, bounded so hashing stays cheap; never truncated. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const FULL_NAME_MAX_LENGTH = 120;
export const EMAIL_MAX_LENGTH = 254;

const Email = Type.String({
  format: 'email',
  minLength: 3,
  maxLength: EMAIL_MAX_LENGTH,
  description: 'An e-mail address; compared case-insensitively.',
});
const Password = Type.String({
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
});
const RedirectTo = Type.String({
  format: 'uri',
  maxLength: 2048,
  description: "Where the verification link sends the user; must be on the app's own origin.",
});

export const SignUpBody = Type.Object(
  {
    email: Email,
    password: Password,
    fullName: Type.String({ minLength: 1, maxLength: FULL_NAME_MAX_LENGTH, pattern: '\\S' }),
    role: Type.Optional(Role),
    redirectTo: Type.Optional(RedirectTo),
    teacherCode: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'The teacher invite code, when TEACHER_SIGNUP is `code` and the role is teacher.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SignUpBody = Static<typeof SignUpBody>;

export const SignInBody = Type.Object(
  {
    email: Email,
    // Sign-in accepts any length up to the maximum so that a wrong password gets the one message.
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
  },
  { additionalProperties: false },
);
export type SignInBody = Static<typeof SignInBody>;

export const ResendBody = Type.Object(
  { email: Email, redirectTo: Type.Optional(RedirectTo) },
  { additionalProperties: false },
);
export type ResendBody = Static<typeof ResendBody>;

/** Answer to sign-up and resend: the same whether or not the address was known. */
export const MessageResponse = Type.Object({ message: Type.String() }, { additionalProperties: false });
export type MessageResponse = Static<typeof MessageResponse>;

export const User = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    emailConfirmedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type User = Static<typeof User>;

export const Profile = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: "Equal to the user's id." }),
    fullName: Type.String(),
    role: Role,
  },
  { additionalProperties: false },
);
export type Profile = Static<typeof Profile>;

/** A signed-in session as the client holds it. The refresh token never appears here: it lives in an httpOnly cookie. */
export const Session = Type.Object(
  {
    accessToken: Type.String({ description: 'Send as `Authorization: Bearer <token>`.' }),
    tokenType: Type.Literal('bearer'),
    expiresIn: Type.Integer({ description: 'Seconds until the access token expires.' }),
    expiresAt: Type.Integer({ description: 'When the access token expires, in seconds since the epoch.' }),
    user: User,
  },
  { additionalProperties: false },
);
export type Session = Static<typeof Session>;

/**
 * The newest live event id when a session was issued. A tab whose data was all fetched after it
 * opens its socket from there: nothing missed since means nothing to fetch again (DESIGN §8).
 */
export const LiveFrom = Type.Integer({
  minimum: 0,
  description:
    'The newest live event id when this session was issued: open the socket with `after` set to it ' +
    'to hear what changed since (data fetched after this answer needs no refetch when nothing did).',
});

export const SessionResponse = Type.Object(
  { session: Session, liveFrom: LiveFrom },
  { additionalProperties: false },
);
export type SessionResponse = Static<typeof SessionResponse>;

/**
 * Answer to a refresh: the new session and the user's profile, so a tab restoring its session at
 * start-up has what the signed-in app shows without a second round trip (GET /api/me) before it.
 */
export const RefreshResponse = Type.Object(
  { session: Session, profile: Profile, liveFrom: LiveFrom },
  { additionalProperties: false },
);
export type RefreshResponse = Static<typeof RefreshResponse>;

export const MeResponse = Type.Object({ user: User, profile: Profile }, { additionalProperties: false });
export type MeResponse = Static<typeof MeResponse>;

export const HealthResponse = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
    database: Type.Object({
      status: Type.Union([Type.Literal('up'), Type.Literal('down')]),
      kind: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
    }),
  },
  { additionalProperties: false },
);
export type HealthResponse = Static<typeof HealthResponse>;
