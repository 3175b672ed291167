import { createHash, createHmac, randomBytes } from 'node:crypto';

/** A fresh unguessable token: 256 bits, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as their SHA-256, so a leaked table grants nothing. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The child of a refresh token, derived from it with the server's key. Deriving (rather than drawing
 * at random) lets a second tab that presents the same token moments after a rotation receive the
 * very same child, so two tabs refreshing together do not sign the user out.
 */
export function deriveChildToken(key: string, parent: string): string {
  return createHmac('sha256', key).update(`refresh-child:${parent}`).digest('base64url');
}
