import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, openTestDatabase, TEST_ORIGIN, type TestApp } from '../support/app.js';
import {
  apiSecurityHeaders,
  inlineScriptsOf,
  securityHeaderOptions,
  securityHeaders,
} from '../../src/http/security-headers.js';

/** The built page's inline script stand-in (the real one starts the session check). */
const INLINE = "window.started = 'early';";

let t: TestApp;
beforeAll(async () => {
  const clientDir = mkdtempSync(path.join(tmpdir(), 'classwave-client-'));
  writeFileSync(
    path.join(clientDir, 'index.html'),
    `<!doctype html><title>Classwave</title><script>${INLINE}</script><div id="root"></div>` +
      '<script type="module" src="/assets/app-abc123.js"></script>',
  );
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  // What the build's precompress step writes: stand-in bytes, so the test sees which file was sent.
  writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js.br'), 'brotli bytes');
  writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js.gz'), 'gzip bytes');
  writeFileSync(path.join(clientDir, 'index.html.br'), 'brotli index');
  t = await createTestApp({ config: { clientDir } });
});
afterAll(() => t.close());

describe('GET /api/health', () => {
  it('reports the server and its database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: { status: 'up', kind: process.env.DATABASE_URL ? 'postgres' : 'pglite' },
    });
  });

  it('reports the database down (503) within about a second of losing it', async () => {
    const database = await openTestDatabase();
    const own = await createTestApp({ database });
    try {
      const health = () => own.app.inject({ method: 'GET', url: '/api/health' });
      expect((await health()).statusCode).toBe(200);
      await database.close();
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const down = await health();
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ status: 'degraded', database: { status: 'down' } });
    } finally {
      await own.close();
      await database.dispose().catch(() => {}); // already closed: only the PostgreSQL copy is left to drop
    }
  });
});

describe('serving the client', () => {
  it.each(['/', '/login', '/dashboard', '/courses/123', '/anything/else'])(
    'answers %s with index.html',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('serves built assets with a long cache', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it.each([
    ['br, gzip', 'br', 'brotli bytes'],
    ['gzip', 'gzip', 'gzip bytes'],
  ])('sends the precompressed asset to a browser accepting %s', async (accepted, encoding, body) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': accepted },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.body).toBe(body);
  });

  it('sends the plain asset to a client accepting no compression', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('console.log(1)');
  });

  it('sends the client routes their precompressed index.html, never cached', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/login',
      headers: { accept: 'text/html', 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe('brotli index');
  });

  it.each(['/api/nope', '/api', '/api/courses/x/y/z'])('never answers %s with the client', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, code: 'not_found' });
  });

  it('answers a POST to an unknown path with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/dashboard', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });
});

describe('security headers', () => {
  it.each([
    ['an answer', 'GET', '/api/health'],
    ['a refusal', 'GET', '/api/courses'],
    ['an unknown route', 'GET', '/api/nope'],
    ['a URL the router cannot read', 'GET', '/api/courses/%E0%A4%A'],
  ])("sends the API's own, stricter set on %s", async (_what, method, url) => {
    const res = await t.app.inject({ method: method as 'GET', url });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['strict-transport-security']).toBeUndefined(); // http here: no HSTS
  });

  it('keeps HSTS on API answers behind https', () => {
    const page = securityHeaders(securityHeaderOptions('https://school.example'));
    expect(page['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(apiSecurityHeaders(page)['strict-transport-security']).toBe(page['strict-transport-security']);
  });

  it('sends built assets no-sniff and their resource policy, not the page policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['content-security-policy']).toBeUndefined();
    const page = await t.app.inject({ method: 'GET', url: '/login' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('sends the page policy on the API docs, which are a page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.headers['content-security-policy']).not.toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends helmet headers and a CSP the client can run under', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/login' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    // The app is served over http here, so requests must not be upgraded to https.
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it("allows the built page's inline script by its hash, and no other inline script", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard' });
    const scriptSrc = String(res.headers['content-security-policy'])
      .split(';')
      .find((d) => d.trim().startsWith('script-src'));
    const hash = createHash('sha256').update(INLINE).digest('base64');
    expect(scriptSrc?.trim()).toBe(`script-src 'self' 'sha256-${hash}'`);
    expect(
      inlineScriptsOf(`<script src="/x.js"></script><SCRIPT type="text/javascript">a()</SCRIPT>`),
    ).toEqual(['a()']);
  });

  it('allows CORS only from APP_ORIGIN', async () => {
    const ok = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/signin',
      headers: { origin: TEST_ORIGIN, 'access-control-request-method': 'POST' },
    });
    expect(ok.headers['access-control-allow-origin']).toBe(TEST_ORIGIN);
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    const foreign = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/signin',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('GET /api/docs', () => {
  it('serves the OpenAPI description of the API', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/auth/signup', '/api/auth/signin', '/api/me', '/api/health']),
    );
  });
});
