import type { OidcSigninError } from '@classwave/shared';
import { oidcSigninErrorMessages } from '@classwave/shared';
import { Notice } from '../../components/Notice';
import './SchoolSignIn.css';

/** The server's route that sends the browser to the school's provider (DESIGN §20). */
export const SCHOOL_SIGN_IN_URL = '/api/auth/oidc/start';

/** A `?error=` the server's school sign-in sent the browser back with, or null. */
export function oidcErrorOf(value: string | null): OidcSigninError | null {
  return value !== null && value in oidcSigninErrorMessages ? (value as OidcSigninError) : null;
}

/** The start route, carrying where to land once signed in (the server checks it again, DESIGN §20). */
export const schoolSignInUrl = (next: string | null) =>
  next ? `${SCHOOL_SIGN_IN_URL}?${new URLSearchParams({ next }).toString()}` : SCHOOL_SIGN_IN_URL;

/**
 * "Sign in with <school>": a link, not a fetch, because the sign-in is a journey of full pages
 * (the provider's, then back to the server, which sets the refresh cookie and sends the browser
 * to `next`, the page the visitor was opening, else home). `divider` puts an "or" between it and
 * the password form below.
 */
export function SchoolSignIn({
  name,
  divider,
  next = null,
}: {
  name: string;
  divider: boolean;
  next?: string | null;
}) {
  return (
    <div className="school-sign-in">
      <a className="button button--secondary button--lg button--full" href={schoolSignInUrl(next)}>
        Sign in with {name}
      </a>
      {divider && (
        <p className="school-sign-in__or" aria-hidden="true">
          <span>or</span>
        </p>
      )}
    </div>
  );
}

/** Why the school sign-in did not finish, and what to do about it. */
export function SchoolSignInError({ reason }: { reason: OidcSigninError }) {
  return (
    <Notice tone="warning" title="We could not sign you in with your school account.">
      <p>{oidcSigninErrorMessages[reason]}</p>
    </Notice>
  );
}
