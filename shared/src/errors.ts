import { Type, type Static } from 'typebox';

/**
 * Stable error codes of the API. Clients branch on `code`, never on `message`,
 * so a code is never renamed once shipped.
 */
export const ErrorCode = {
  validationFailed: 'validation_failed',
  invalidJson: 'invalid_json',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  unauthorized: 'unauthorized',
  tokenExpired: 'token_expired',
  invalidToken: 'invalid_token',
  sessionEnded: 'session_ended',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  rateLimited: 'rate_limited',
  invalidCredentials: 'invalid_credentials',
  emailNotConfirmed: 'email_not_confirmed',
  invalidRedirect: 'invalid_redirect',
  emailSendFailed: 'email_send_failed',
  refreshTokenMissing: 'refresh_token_missing',
  refreshTokenInvalid: 'refresh_token_invalid',
  serviceUnavailable: 'service_unavailable',
  /** No course has that join code (or it was reset): 404. */
  joinCodeInvalid: 'join_code_invalid',
  /** The course's teacher turned joining off: 403. */
  joinDisabled: 'join_disabled',
  /** A former member tried to submit or write to the course: 403. */
  notAMember: 'not_a_member',
  /** TEACHER_SIGNUP does not let this address (or this missing/wrong invite code) create a teacher account: 403. */
  teacherSignupNotAllowed: 'teacher_signup_not_allowed',
  /** A password-reset link that is unknown, used or expired: 400. */
  resetLinkInvalid: 'reset_link_invalid',
  /** The current password given to change the password or delete the account is wrong: 403. */
  wrongPassword: 'wrong_password',
  /** A teacher who still owns courses cannot delete their account: 409. */
  ownsCourses: 'owns_courses',
  /** A grade written from a stale version (DESIGN §13): 409 with `current`. */
  gradeConflict: 'grade_conflict',
  /** The assignment closes at its due time and it has passed: 409. */
  assignmentClosed: 'assignment_closed',
  /** Max points below a grade already given: 409. */
  pointsBelowGrade: 'points_below_grade',
  /** Another tab saved the draft first: 409 with its content and version (DESIGN §12). */
  draftConflict: 'draft_conflict',
  /** Unsubmit refused: the submission has a grade (409). */
  alreadyGraded: 'already_graded',
  /** Unsubmit refused: the assignment's due time has passed (409). */
  pastDue: 'past_due',
  /** A student asked for their submission to an assignment they never submitted to: 404. */
  noSubmission: 'no_submission',
  /** Undo refused: the scheduled Return has already sent the grades (409). */
  returnAlreadySent: 'return_already_sent',
  /** A rubric (or max points) change refused: grades were given by the rubric as it stands (409). */
  rubricInUse: 'rubric_in_use',
  /** An upload's purpose that cannot take files yet (posts and comments, DESIGN §19): 422. */
  purposeNotAvailable: 'purpose_not_available',
  /** A file over UPLOAD_MAX_BYTES, or more bytes than the upload declared: 413. */
  fileTooLarge: 'file_too_large',
  /** A submission's files would pass UPLOAD_MAX_FILES: 422. */
  tooManyFiles: 'too_many_files',
  /** The uploader's files would pass UPLOAD_QUOTA_BYTES: 413. */
  quotaExceeded: 'quota_exceeded',
  /** A submit names a file still uploading (DESIGN §18: no receipt before every file is stored): 409. */
  filesNotReady: 'files_not_ready',
  /** A tus request the upload protocol refuses (a wrong offset, a missing header): its status. */
  uploadRefused: 'upload_refused',
  /** A Range a file cannot satisfy: 416. */
  rangeNotSatisfiable: 'range_not_satisfiable',
  /** The course's teacher muted this student in the course's stream (DESIGN §19): 403. */
  mutedInCourse: 'muted_in_course',
  /** Comments are off on this post or for the whole course (DESIGN §19): 403. */
  commentsOff: 'comments_off',
  /** A `before` that is not a cursor this server handed out: 400. */
  invalidCursor: 'invalid_cursor',
  /** A co-teacher invitation link that no invitation has (or whose course is gone): 404. */
  teacherInviteInvalid: 'teacher_invite_invalid',
  /** A co-teacher invitation already accepted: 409. */
  teacherInviteUsed: 'teacher_invite_used',
  /** A co-teacher invitation past its expiry: 410. */
  teacherInviteExpired: 'teacher_invite_expired',
  /** A course already has MAX_CO_TEACHERS co-teachers: 409. */
  tooManyTeachers: 'too_many_teachers',
  /** A course already has a live lesson (DESIGN §21): 409. */
  lessonInProgress: 'lesson_in_progress',
  /** The lesson has ended: nothing more can be pushed, closed or answered (409). */
  lessonEnded: 'lesson_ended',
  /** An answer to a question that is closed (or not the open one): 409. */
  questionClosed: 'question_closed',
  /** End into the gradebook with no question that has a right answer: 409. */
  nothingToGrade: 'nothing_to_grade',
  /**
   * A write to an archived course, or to its assignments, work, grades, posts or lessons (DESIGN
   * §20): it is read-only until its owner unarchives it (409).
   */
  courseArchived: 'course_archived',
  /** PASSWORD_SIGNIN=off: the server signs people in only through the school's provider (403). */
  passwordSigninOff: 'password_signin_off',
  /** A roster import over ROSTER_MAX_ROWS rows (413; the body's bytes have payload_too_large). */
  rosterTooLarge: 'roster_too_large',
  /** A roster file that cannot be read as one: no name/e-mail header, broken quotes, no such class (422). */
  rosterInvalid: 'roster_invalid',
  /** An assignee who is not an active member student of the course (DESIGN §20): 422. */
  assigneeNotMember: 'assignee_not_member',
  /** An extension for a student the assignment is not for (DESIGN §20): 422. */
  notAssigned: 'not_assigned',
  /** A publish time for an assignment its students already see (DESIGN §20): 409. */
  alreadyPublished: 'already_published',
  internal: 'internal_error',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The one error shape every failing API call answers with. */
export const ErrorBody = Type.Object(
  {
    statusCode: Type.Integer({ description: 'The HTTP status, repeated for clients that lose it.' }),
    code: Type.String({ description: 'A stable, machine-readable error code.' }),
    error: Type.String({ description: 'The HTTP status text, e.g. "Bad Request".' }),
    message: Type.String({ description: 'A human-readable explanation naming the problem.' }),
  },
  { $id: 'ErrorBody', additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** Why a verification link did not work; `/login?error=<reason>` carries it to the client. */
export const VerifyLinkError = {
  expired: 'link_expired',
  used: 'link_used',
  /** The link was used and the account is confirmed: nothing left to do but sign in. */
  alreadyVerified: 'already_verified',
  invalid: 'link_invalid',
} as const;
export type VerifyLinkError = (typeof VerifyLinkError)[keyof typeof VerifyLinkError];

/** What the login page says for each verification-link failure. */
export const verifyLinkErrorMessages: Record<VerifyLinkError, string> = {
  link_expired: 'That verification link has expired. Enter your e-mail below to get a new one.',
  link_used: 'That verification link has already been used. Sign in, or ask for a new link below.',
  already_verified: 'Already verified — sign in.',
  link_invalid: 'That verification link is not valid. Enter your e-mail below to get a new one.',
};

/** Why a sign-in with the school's provider was refused; `/login?error=<reason>` carries it (DESIGN §20). */
export const OidcSigninError = {
  /** The sign-in was not started here, took over ten minutes, or was answered twice. */
  state: 'oidc_state',
  /** The person cancelled at the school's sign-in, or the provider would not let them in. */
  denied: 'oidc_denied',
  /** The provider's answer did not check out (a used or wrong code, a bad ID token). */
  failed: 'oidc_failed',
  /** The provider did not vouch for the e-mail address (email_verified). */
  emailUnverified: 'oidc_email_unverified',
  /** No OIDC_ROLE_RULES rule gives the address (or its claims) a role. */
  noRole: 'oidc_no_role',
  /** The provider could not be reached. */
  unavailable: 'oidc_unavailable',
  /** This server has no school sign-in (OIDC_ISSUER unset). */
  notConfigured: 'oidc_not_configured',
} as const;
export type OidcSigninError = (typeof OidcSigninError)[keyof typeof OidcSigninError];

/** What the login page says for each refused school sign-in. */
export const oidcSigninErrorMessages: Record<OidcSigninError, string> = {
  oidc_state:
    'That sign-in could not be finished: it was started elsewhere, took too long or was already used. Please try again.',
  oidc_denied: 'The school sign-in was cancelled or refused. Please try again.',
  oidc_failed: "Your school's sign-in answered something we could not check. Please try again.",
  oidc_email_unverified:
    "Your school's sign-in did not confirm your e-mail address, so we cannot link it to an account. Ask your school's IT.",
  oidc_no_role:
    "Your account at school is not set up to use Classwave (no teacher or student rule matches it). Ask your school's IT.",
  oidc_unavailable: "Your school's sign-in cannot be reached right now. Please try again in a few minutes.",
  oidc_not_configured: 'Sign-in with a school account is not set up on this server.',
};
