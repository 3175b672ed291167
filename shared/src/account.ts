import { Type, type Static } from 'typebox';
import { FULL_NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, Profile, User } from './auth.js';

/** How the server decides who may sign up as a teacher (TEACHER_SIGNUP), as the sign-up page needs it. */
export const AuthSettingsResponse = Type.Object(
  {
    teacherSignup: Type.Union([Type.Literal('open'), Type.Literal('domains'), Type.Literal('code')]),
    domains: Type.Optional(
      Type.Array(Type.String(), { description: 'With `domains`: the e-mail domains teachers sign up from.' }),
    ),
    passwordSignin: Type.Boolean({
      description: 'False when PASSWORD_SIGNIN=off: sign-up, sign-in and recovery by password answer 403.',
    }),
    oidc: Type.Optional(
      Type.Object(
        { name: Type.String({ description: 'The button says "Sign in with <name>" (OIDC_NAME).' }) },
        { additionalProperties: false, description: "Present when the school's OpenID provider is set up." },
      ),
    ),
  },
  { additionalProperties: false },
);
export type AuthSettingsResponse = Static<typeof AuthSettingsResponse>;

const NewPassword = Type.String({
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, as at sign-up.`,
});
/** A password being checked, not chosen: any length up to the maximum, so a wrong one gets the one message. */
const CurrentPassword = Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH });

export const RecoverBody = Type.Object(
  {
    email: Type.String({ format: 'email', minLength: 3, maxLength: 254 }),
    redirectTo: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2048,
        description: "The reset page the mailed link opens; must be on the app's own origin.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type RecoverBody = Static<typeof RecoverBody>;

export const ResetBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: 'The token from the mailed link.' }),
    password: NewPassword,
  },
  { additionalProperties: false },
);
export type ResetBody = Static<typeof ResetBody>;

/** `POST /api/auth/reset/check`: whether a reset link still works, asked as its page opens (issue 25). */
export const ResetCheckBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: 'The token from the mailed link.' }) },
  { additionalProperties: false },
);
export type ResetCheckBody = Static<typeof ResetCheckBody>;

export const UpdateProfileBody = Type.Object(
  { fullName: Type.String({ minLength: 1, maxLength: FULL_NAME_MAX_LENGTH, pattern: '\\S' }) },
  { additionalProperties: false },
);
export type UpdateProfileBody = Static<typeof UpdateProfileBody>;

export const ChangePasswordBody = Type.Object(
  { currentPassword: CurrentPassword, newPassword: NewPassword },
  { additionalProperties: false },
);
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

export const DeleteAccountBody = Type.Object({ password: CurrentPassword }, { additionalProperties: false });
export type DeleteAccountBody = Static<typeof DeleteAccountBody>;

/** One signed-in session of the user, as the settings page lists it. */
export const SessionInfo = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    /** Browser and system read from the User-Agent, e.g. "Firefox on Windows". */
    device: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    /** Last refresh or sign-in; updated at most once a minute. */
    lastSeenAt: Type.String({ format: 'date-time' }),
    /** The session making this request. */
    current: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type SessionInfo = Static<typeof SessionInfo>;

export const SessionsResponse = Type.Object(
  { sessions: Type.Array(SessionInfo) },
  { additionalProperties: false },
);
export type SessionsResponse = Static<typeof SessionsResponse>;

export const SignedOutOthersResponse = Type.Object(
  { ended: Type.Integer({ minimum: 0, description: 'How many other sessions were ended.' }) },
  { additionalProperties: false },
);
export type SignedOutOthersResponse = Static<typeof SignedOutOthersResponse>;

const ExportCourse = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    code: Type.String(),
    description: Type.String(),
    createdAt: Type.String(),
  },
  { additionalProperties: false },
);
const ExportSubmission = Type.Object(
  {
    id: Type.String(),
    assignmentId: Type.String(),
    assignmentTitle: Type.String(),
    courseId: Type.String(),
    /** Both null on a returned grade for missing work (nothing was handed in, DESIGN §17). */
    content: Type.Union([Type.String(), Type.Null()]),
    submittedAt: Type.Union([Type.String(), Type.Null()]),
    grade: Type.Union([Type.Integer(), Type.Null()]),
    maxPoints: Type.Integer(),
    feedback: Type.Union([Type.String(), Type.Null()]),
    gradedAt: Type.Union([Type.String(), Type.Null()]),
    /** The rubric's scores as returned (DESIGN §17), each criterion with its chosen level; null otherwise. */
    rubric: Type.Union([
      Type.Array(
        Type.Object(
          { criterion: Type.String(), level: Type.String(), points: Type.Integer() },
          { additionalProperties: false },
        ),
      ),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);
const ExportDraft = Type.Object(
  {
    assignmentId: Type.String(),
    assignmentTitle: Type.String(),
    content: Type.String(),
    updatedAt: Type.String(),
  },
  { additionalProperties: false },
);
const ExportNotification = Type.Object(
  {
    kind: Type.String(),
    title: Type.String(),
    body: Type.String(),
    link: Type.String(),
    createdAt: Type.String(),
    readAt: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
const ExportChat = Type.Object(
  { question: Type.String(), answer: Type.String(), createdAt: Type.String() },
  { additionalProperties: false },
);

/** "Download my data": everything the app keeps about the user, as JSON. */
/** A file the user uploaded (DESIGN §18): its bytes download from `download` (GET /api/files/:id). */
const ExportFile = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    size: Type.Integer(),
    type: Type.String(),
    purpose: Type.String(),
    assignmentId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    uploadedAt: Type.String({ format: 'date-time' }),
    download: Type.String(),
  },
  { additionalProperties: false },
);

/** A post the user wrote (DESIGN §19). */
const ExportPost = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    courseId: Type.String({ format: 'uuid' }),
    text: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    publishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    editedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { additionalProperties: false },
);
/** A comment the user wrote and did not delete: on a post, or in a private thread (assignment and student). */
const ExportComment = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    courseId: Type.String({ format: 'uuid' }),
    postId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    assignmentId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    threadStudentId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    text: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

/** A value as a live lesson's answer or right answer is (a choice's index, true/false, a number, text). */
const ExportAnswerValue = Type.Union([Type.Number(), Type.Boolean(), Type.String()]);
/**
 * A student's own answer to a live lesson's question (DESIGN §21). Whether it was right, and the
 * right answer, only once the question is closed (revealed); never for a poll.
 */
const ExportLessonAnswer = Type.Object(
  {
    lessonId: Type.String({ format: 'uuid' }),
    courseId: Type.String({ format: 'uuid' }),
    questionId: Type.String({ format: 'uuid' }),
    kind: Type.String(),
    prompt: Type.String(),
    options: Type.Array(Type.String()),
    answer: ExportAnswerValue,
    answeredAt: Type.String({ format: 'date-time' }),
    correct: Type.Union([Type.Boolean(), Type.Null()]),
    rightAnswer: Type.Union([ExportAnswerValue, Type.Null()]),
  },
  { additionalProperties: false },
);

export const AccountExport = Type.Object(
  {
    exportedAt: Type.String({ format: 'date-time' }),
    user: User,
    profile: Profile,
    /** A teacher's own courses; a student's courses they submitted work to. */
    courses: Type.Array(ExportCourse),
    /** A student's submissions with their grades and feedback. */
    submissions: Type.Array(ExportSubmission),
    /** A student's answers saved but not yet submitted (DESIGN §12). */
    drafts: Type.Array(ExportDraft),
    /** The inbox (DESIGN §14), newest first. */
    notifications: Type.Array(ExportNotification),
    chat: Type.Array(ExportChat),
    /** Every file the user uploaded and still has (DESIGN §18), oldest first. */
    files: Type.Optional(Type.Array(ExportFile)),
    /** The user's own posts (DESIGN §19), oldest first; never anyone else's. */
    posts: Type.Optional(Type.Array(ExportPost)),
    /** The user's own comments, on posts and in private threads, oldest first; never anyone else's. */
    comments: Type.Optional(Type.Array(ExportComment)),
    /** A student's own answers in live lessons (DESIGN §21), oldest first. */
    lessonAnswers: Type.Optional(Type.Array(ExportLessonAnswer)),
  },
  { additionalProperties: false },
);
export type AccountExport = Static<typeof AccountExport>;
