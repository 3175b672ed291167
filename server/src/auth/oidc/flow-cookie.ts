import { createHmac, timingSafeEqual } from 'node:crypto';
import type { OidcFlow } from './client.js';

/** A flow and where the browser goes once it is signed in (a path checked by next.ts). */
export type SealedFlow = OidcFlow & { next?: string | undefined };

/** The flow's cookie: scoped to the OIDC routes, gone after ten minutes (a sign-in takes one). */
export const FLOW_COOKIE = 'classwave_oidc';
export const FLOW_COOKIE_PATH = '/api/auth/oidc';
export const FLOW_TTL_SECONDS = 10 * 60;

/**
 * Seals a sign-in's state, nonce and PKCE verifier into a cookie value the server alone can have
 * made (HMAC-SHA256), with its expiry inside: no table to sweep, and a cookie copied past its
 * time or edited is refused. httpOnly keeps the verifier from the page's scripts.
 */
export function createFlowSeal(key: string) {
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    seal(flow: SealedFlow, now: Date): string {
      const payload = Buffer.from(
        JSON.stringify({ ...flow, exp: now.getTime() + FLOW_TTL_SECONDS * 1000 }),
      ).toString('base64url');
      return `${payload}.${sign(payload)}`;
    },
    /** The flow, or undefined when the value is missing, forged, edited or expired. */
    open(value: string | undefined, now: Date): SealedFlow | undefined {
      if (!value || value.length > 3072) return undefined;
      const [payload, signature, extra] = value.split('.');
      if (!payload || !signature || extra !== undefined) return undefined;
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      try {
        const flow = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SealedFlow & {
          exp: number;
        };
        if (typeof flow.exp !== 'number' || flow.exp <= now.getTime()) return undefined;
        return {
          state: flow.state,
          nonce: flow.nonce,
          codeVerifier: flow.codeVerifier,
          ...(typeof flow.next === 'string' ? { next: flow.next } : {}),
        };
      } catch {
        return undefined;
      }
    },
  };
}
