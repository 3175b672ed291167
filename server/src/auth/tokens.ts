import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import { ErrorCode } from '@classwave/shared';
import { unauthorized } from '../http/errors.js';

export interface AccessClaims {
  /** The user id. */
  sub: string;
  /** The session id: revoking the session stops the token at once. */
  sid: string;
  iat: number;
  exp: number;
}

const AUDIENCE = 'classwave';

/** Signs and checks access tokens: HS256 only, expiry checked against the injected clock. */
export function createAccessTokens(secret: string) {
  const sign = createSigner({ key: secret, algorithm: 'HS256', noTimestamp: true, aud: AUDIENCE });
  const verifyToken = createVerifier({
    key: secret,
    algorithms: ['HS256'],
    allowedAud: AUDIENCE,
    // Expiry is checked below against the app's clock, so tests can move time.
    ignoreExpiration: true,
    ignoreNotBefore: true,
    cache: 1000,
  });

  return {
    sign(claims: { userId: string; sessionId: string; now: Date; ttlSeconds: number }): {
      token: string;
      expiresAt: number;
    } {
      const iat = Math.floor(claims.now.getTime() / 1000);
      const exp = iat + claims.ttlSeconds;
      return { token: sign({ sub: claims.userId, sid: claims.sessionId, iat, exp }), expiresAt: exp };
    },

    /** Returns the claims, or throws a 401 AppError saying why the token is refused. */
    verify(token: string, now: Date): AccessClaims {
      let claims: Partial<AccessClaims>;
      try {
        claims = verifyToken(token) as Partial<AccessClaims>;
      } catch (error) {
        if (error instanceof TokenError || error instanceof Error) {
          throw unauthorized('The access token is not valid.', ErrorCode.invalidToken);
        }
        throw error;
      }
      if (
        typeof claims.sub !== 'string' ||
        typeof claims.sid !== 'string' ||
        typeof claims.exp !== 'number'
      ) {
        throw unauthorized('The access token is not valid.', ErrorCode.invalidToken);
      }
      if (claims.exp * 1000 <= now.getTime()) {
        throw unauthorized('Your session has expired. Please sign in again.', ErrorCode.tokenExpired);
      }
      return claims as AccessClaims;
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;
