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
  invalid: 'link_invalid',
} as const;
export type VerifyLinkError = (typeof VerifyLinkError)[keyof typeof VerifyLinkError];

/** What the login page says for each verification-link failure. */
export const verifyLinkErrorMessages: Record<VerifyLinkError, string> = {
  link_expired: 'That verification link has expired. Enter your e-mail below to get a new one.',
  link_used: 'That verification link has already been used. Sign in, or ask for a new link below.',
  link_invalid: 'That verification link is not valid. Enter your e-mail below to get a new one.',
};
