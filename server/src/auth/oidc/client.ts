import * as oidc from 'openid-client';
import type { OidcConfig } from './config.js';

/** What the callback checks against: made at the start, kept in the browser's sealed cookie. */
export interface OidcFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The claims the sign-in decides by: the ID token's, with the UserInfo endpoint's beneath them. */
export type OidcClaims = Record<string, unknown> & { sub: string };

/** Seconds a request to the provider may take before the sign-in is refused as unavailable. */
const PROVIDER_TIMEOUT_SECONDS = 10;
const SCOPE = 'openid email profile';

/**
 * The school's provider through `openid-client` (a certified relying party): authorization code
 * with PKCE (S256), state and nonce. The provider's metadata is discovered on first use and kept;
 * a failed discovery is forgotten so the next sign-in tries again (the provider may be back).
 */
export function createOidcClient(config: OidcConfig, redirectUri: string) {
  let discovered: Promise<oidc.Configuration> | undefined;
  const issuer = new URL(config.issuer);
  function configuration(): Promise<oidc.Configuration> {
    discovered ??= oidc
      .discovery(issuer, config.clientId, config.clientSecret, undefined, {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        // Plain http only ever reaches here for loopback or outside production (config.ts).
        execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw new ProviderUnavailable(error);
      });
    return discovered;
  }

  return {
    /** Where to send the browser, and the checks its return must pass. */
    async begin(): Promise<{ url: URL; flow: OidcFlow }> {
      const conf = await configuration();
      const flow: OidcFlow = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
      };
      const url = oidc.buildAuthorizationUrl(conf, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
      return { url, flow };
    },

    /**
     * Exchanges the code from the callback URL and validates the ID token (signature, issuer,
     * audience, expiry, nonce) through the library; throws its errors as they are.
     */
    async finish(callbackUrl: URL, flow: OidcFlow): Promise<OidcClaims> {
      const conf = await configuration();
      const tokens = await oidc.authorizationCodeGrant(conf, callbackUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims()!;
      // Many providers put the e-mail only in UserInfo; the ID token's claims win where both say.
      if (idClaims.email === undefined && conf.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(conf, tokens.access_token, idClaims.sub);
        return { ...info, ...idClaims };
      }
      return { ...idClaims };
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;

/** The provider could not be reached (or answered no usable metadata). */
export class ProviderUnavailable extends Error {
  override name = 'ProviderUnavailable';
  constructor(cause: unknown) {
    super('The OpenID provider could not be reached', { cause });
  }
}

/** The provider said no at the authorization step (the person cancelled, or may not use the app). */
export const isAuthorizationRefusal = (error: unknown): boolean =>
  error instanceof oidc.AuthorizationResponseError;
