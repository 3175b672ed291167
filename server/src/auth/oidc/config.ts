import type { Role } from '@classwave/shared';

/**
 * One line of OIDC_ROLE_RULES: who gets which role. `domain` matches the e-mail's domain exactly
 * (`@staff.school.test` does not match `x@sub.staff.school.test`: a school's subdomains are often
 * other people); `claim` matches an ID-token claim equal to the value, or an array claim (groups,
 * roles) that holds it.
 */
export type RoleRule = { role: Role; domain: string } | { role: Role; claim: string; value: string };

/** The school's OpenID Connect provider (DESIGN §20); undefined when OIDC_ISSUER is unset. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button's words: "Sign in with <name>". */
  name: string;
  /** First match wins; a sign-in that matches none is refused. */
  roleRules: RoleRule[];
}

/** A configuration problem's message, naming the variable; config.ts wraps it in its ConfigError. */
type Fail = (message: string) => never;
type Env = Record<string, string | undefined>;

const ROLES: readonly Role[] = ['student', 'teacher'];
const DOMAIN = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;
const CLAIM = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
const RULES_EXAMPLE = 'teacher:@staff.school.example,student:@pupils.school.example,teacher:groups=staff';

/**
 * OIDC_ROLE_RULES: a comma list of `role:@domain` or `role:claim=value`, e.g.
 * `teacher:@staff.school.example,student:@pupils.school.example,teacher:groups=staff`.
 */
export function parseRoleRules(raw: string, fail: Fail): RoleRule[] {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0) fail(`OIDC_ROLE_RULES must list at least one rule, such as ${RULES_EXAMPLE}`);
  return items.map((item) => {
    const colon = item.indexOf(':');
    const role = item.slice(0, colon) as Role;
    const matcher = item.slice(colon + 1).trim();
    if (colon < 0 || !ROLES.includes(role))
      fail(`OIDC_ROLE_RULES: "${item}" must start with student: or teacher: (e.g. ${RULES_EXAMPLE})`);
    if (matcher.startsWith('@')) {
      const domain = matcher.slice(1).toLowerCase();
      if (!DOMAIN.test(domain)) fail(`OIDC_ROLE_RULES: "${item}" names no e-mail domain after the @`);
      return { role, domain };
    }
    const eq = matcher.indexOf('=');
    const claim = matcher.slice(0, eq);
    const value = matcher.slice(eq + 1);
    if (eq < 0 || !CLAIM.test(claim) || value === '')
      fail(`OIDC_ROLE_RULES: "${item}" must be role:@domain or role:claim=value (e.g. ${RULES_EXAMPLE})`);
    return { role, claim, value };
  });
}

/** The role the first matching rule gives, or undefined when none matches (the sign-in is refused). */
export function roleFor(rules: RoleRule[], email: string, claims: Record<string, unknown>): Role | undefined {
  const domain = email.toLowerCase().split('@').pop() ?? '';
  for (const rule of rules) {
    if ('domain' in rule) {
      if (rule.domain === domain) return rule.role;
      continue;
    }
    const claim = claims[rule.claim];
    if (claim === rule.value || (Array.isArray(claim) && claim.includes(rule.value))) return rule.role;
  }
  return undefined;
}

/**
 * OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_ROLE_RULES and OIDC_NAME: all or none.
 * The issuer must be https, except on loopback or outside production (a test's own provider).
 */
export function oidcConfig(env: Env, production: boolean, fail: Fail): OidcConfig | undefined {
  const issuer = env.OIDC_ISSUER?.trim() ?? '';
  if (issuer === '') {
    const stray = ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ROLE_RULES'].find((n) => env[n]);
    if (stray) fail(`${stray} is set but OIDC_ISSUER is not: set OIDC_ISSUER to the provider's URL`);
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return fail(`OIDC_ISSUER must be a URL such as https://accounts.school.example (got "${issuer}")`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (loopback || !production)))
    fail(`OIDC_ISSUER must start with https:// (got "${issuer}")`);
  const clientId = env.OIDC_CLIENT_ID?.trim() ?? '';
  const clientSecret = env.OIDC_CLIENT_SECRET ?? '';
  if (clientId === '')
    fail('OIDC_CLIENT_ID is required with OIDC_ISSUER (the client id the provider gave this app)');
  if (clientSecret === '')
    fail('OIDC_CLIENT_SECRET is required with OIDC_ISSUER (the client secret the provider gave this app)');
  const rules = env.OIDC_ROLE_RULES ?? '';
  if (rules.trim() === '')
    fail(
      `OIDC_ROLE_RULES is required with OIDC_ISSUER: who is a teacher or a student, e.g. ${RULES_EXAMPLE}`,
    );
  const name = (env.OIDC_NAME ?? '').trim() || 'your school';
  if (name.length > 60) fail(`OIDC_NAME must be at most 60 characters (got ${name.length})`);
  return { issuer, clientId, clientSecret, name, roleRules: parseRoleRules(rules, fail) };
}
