import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** What the test provider says about a person: the claims of their ID token and UserInfo. */
export interface TestIdentity {
  email: string;
  email_verified: boolean;
  name?: string;
  groups?: string[];
}

export const OIDC_CLIENT_ID = 'classwave-test';
export const OIDC_CLIENT_SECRET = 'classwave-test-secret-long-enough';

/**
 * A real OpenID Connect provider (the `oidc-provider` package, certified) on 127.0.0.1 for the
 * tests: one confidential client whose redirect URI is the app's callback, PKCE required, people
 * added by the test. Its login page is a plain form (login name, a Sign in button): any password-
 * less login of a known person succeeds, and consent is given by the provider itself (a school's
 * own app needs none), so the flow is login → back to the app.
 */
export class TestOidcProvider {
  private server: Server | undefined;
  private readonly people = new Map<string, TestIdentity>();
  provider!: Provider;
  issuer = '';

  /** `appOrigin`: the app whose /api/auth/oidc/callback is the client's redirect URI. */
  async start(appOrigin: string): Promise<this> {
    await this.listen();
    return this.serve(appOrigin);
  }

  /** Listens on a free loopback port: the issuer is known from here on (an app may be started with it). */
  async listen(): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  /** Becomes the provider for the app at `appOrigin` (known once that app is listening). */
  serve(appOrigin: string): this {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: OIDC_CLIENT_ID,
          client_secret: OIDC_CLIENT_SECRET,
          redirect_uris: [`${appOrigin}/api/auth/oidc/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
      cookies: { keys: ['test-provider-cookie-key'] },
      // Groups ride with the profile, as a school's provider sends them in the ID token unasked.
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        Grant: 600,
        IdToken: 600,
        Interaction: 600,
        Session: 600,
      },
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, id) => {
        const person = this.people.get(id);
        return person ? { accountId: id, claims: () => ({ sub: id, ...person }) } : undefined;
      },
      loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
        const { client, session } = ctx.oidc;
        if (!client || !session?.accountId) return undefined;
        const grant = new ctx.oidc.provider.Grant({
          clientId: client.clientId,
          accountId: session.accountId,
        });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
    });
    return this;
  }

  /** Adds (or replaces) the person who signs in as `login`. */
  addPerson(login: string, identity: TestIdentity): void {
    this.people.set(login, identity);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(req.url ?? '');
    if (!match) return this.provider.callback()(req, res);
    try {
      const details = await this.provider.interactionDetails(req, res);
      if (req.method === 'POST' && match[2]) {
        const login = new URLSearchParams(await bodyOf(req)).get('login') ?? '';
        if (this.people.has(login)) {
          await this.provider.interactionFinished(req, res, { login: { accountId: login } });
          return;
        }
        return page(res, details.uid, `No account "${login}" here.`);
      }
      return page(res, details.uid);
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
    }
  }
}

/** The provider's sign-in page: what a person sees at the school. */
function page(res: ServerResponse, uid: string, problem = ''): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><title>Test School sign-in</title></head>
<body style="font-family: sans-serif; max-width: 24rem; margin: 4rem auto">
<h1>Test School</h1>${problem ? `<p role="alert">${problem.replace(/[<>&"]/g, '')}</p>` : ''}
<form method="post" action="/interaction/${uid}/login">
<label>School login <input name="login" autofocus></label>
<button type="submit">Sign in</button>
</form></body></html>`);
}

function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** Cookies the provider set, kept per name as a browser would (enough for one flow). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Goes through the provider's pages over real HTTP as a browser would: from the authorization URL
 * the app redirected to, signing in as `login`, until the provider sends the browser back to the
 * app. Returns that URL (the app's callback, with code, state and iss, or an error).
 */
export async function signInAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new CookieJar();
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  let body: string | undefined;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(body === undefined ? {} : { body }),
    });
    jar.take(res);
    body = undefined;
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url);
      if (url.origin !== origin) return url;
      continue;
    }
    const html = await res.text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action) throw new Error(`provider page ${res.status}: ${html.slice(0, 200)}`);
    url = new URL(action, url);
    body = new URLSearchParams({ login }).toString();
  }
  throw new Error('the provider never sent the browser back to the app');
}
