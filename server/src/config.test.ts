import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'classwave-config-'));

describe('loadConfig', () => {
  it('keeps attachments on the disk by default, with the documented limits, or in an S3 bucket', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({
      storage: { kind: 'disk', directory: path.join(dir, 'files') },
      uploads: { maxBytes: 50 * 1024 * 1024, maxFiles: 20, quotaBytes: 1024 * 1024 * 1024 },
    });
    expect(
      loadConfig({
        DATA_DIR: dir,
        STORAGE_URL: 's3://school-files',
        S3_ENDPOINT: 'http://minio:9000',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
      }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'school-files',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
    });
  });

  it('starts with no variables at all, generating and keeping a JWT secret in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first).toMatchObject({
      port: 3000,
      accessTokenTtlSeconds: 900,
      perIpLimitScale: 1,
      appOrigin: 'http://localhost:3000',
      databaseUrl: undefined,
      trustProxy: false,
    });
    const file = path.join(dir, 'jwt-secret');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.jwtSecret);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first.jwtSecret);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ APP_ORIGIN: 'not a url' }, 'APP_ORIGIN'],
    [{ APP_ORIGIN: 'https://school.example/app' }, 'APP_ORIGIN'],
    [{ DATABASE_URL: 'mysql://db/x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://redis' }, 'REDIS_URL'],
    [{ SMTP_URL: 'mail.example' }, 'SMTP_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ ACCESS_TOKEN_TTL: '5' }, 'ACCESS_TOKEN_TTL'],
    [{ STORAGE_URL: 'ftp://files' }, 'STORAGE_URL'],
    [{ STORAGE_URL: 's3://Bad_Bucket' }, 'STORAGE_URL'],
    [{ STORAGE_URL: 's3://bucket/some/path' }, 'STORAGE_URL'],
    [{ STORAGE_URL: 's3://bucket', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
    [{ STORAGE_URL: 's3://bucket', S3_ACCESS_KEY_ID: 'key' }, 'S3_ACCESS_KEY_ID'],
    [{ STORAGE_URL: 's3://bucket', S3_REGION: 'Mars Base' }, 'S3_REGION'],
    [{ UPLOAD_MAX_BYTES: '50MB' }, 'UPLOAD_MAX_BYTES'],
    [{ UPLOAD_MAX_FILES: '0' }, 'UPLOAD_MAX_FILES'],
    [{ UPLOAD_QUOTA_BYTES: '-1' }, 'UPLOAD_QUOTA_BYTES'],
    [{ ACCESS_TOKEN_TTL: 'an hour' }, 'ACCESS_TOKEN_TTL'],
    [{ NODE_ENV: 'test', RETURN_UNDO_SECONDS: '0' }, 'RETURN_UNDO_SECONDS'],
    [{ NODE_ENV: 'test', RETURN_UNDO_SECONDS: '30' }, 'RETURN_UNDO_SECONDS'],
    [{ RETURN_UNDO_SECONDS: '5' }, 'RETURN_UNDO_SECONDS'],
    [{ PER_IP_LIMIT_SCALE: '0' }, 'PER_IP_LIMIT_SCALE'],
    [{ PER_IP_LIMIT_SCALE: 'lots' }, 'PER_IP_LIMIT_SCALE'],
    [{ TEACHER_SIGNUP: 'anyone' }, 'TEACHER_SIGNUP'],
    [{ TEACHER_SIGNUP: 'domains:' }, 'TEACHER_SIGNUP'],
    [{ TEACHER_SIGNUP: 'domains:school example' }, 'TEACHER_SIGNUP'],
    [{ TEACHER_SIGNUP: 'code' }, 'TEACHER_INVITE_CODE'],
    [{ TEACHER_SIGNUP: 'code', TEACHER_INVITE_CODE: 'short' }, 'TEACHER_INVITE_CODE'],
  ])('refuses %o naming %s', (env, name) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrowError(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrowError(new RegExp(`^${name} `));
  });

  it('shortens the undo window of a Return only for tests (RETURN_UNDO_SECONDS with NODE_ENV=test)', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).returnUndoSeconds).toBe(10);
    expect(
      loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'test', RETURN_UNDO_SECONDS: '4' }).returnUndoSeconds,
    ).toBe(4);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        JWT_SECRET: 'x'.repeat(40),
        TEACHER_INVITE_CODE: 'staff-room-2026',
        DATA_DIR: dataDir(),
        RETURN_UNDO_SECONDS: '4',
      }),
    ).toThrowError(/^RETURN_UNDO_SECONDS is a test setting and needs NODE_ENV=test/);
  });

  it('requires JWT_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrowError(
      /JWT_SECRET is required/,
    );
    const ok = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
      TEACHER_INVITE_CODE: 'staff-room-2026',
      DATA_DIR: dataDir(),
    });
    expect(ok.jwtSecret).toBe('x'.repeat(40));
  });

  it('lets anyone sign up as a teacher in development, but asks for an invite code in production', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).teacherSignup).toEqual({ mode: 'open' });
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), DATA_DIR: dataDir() };
    expect(() => loadConfig(production)).toThrowError(/^TEACHER_INVITE_CODE .*NODE_ENV=production/);
    expect(loadConfig({ ...production, TEACHER_INVITE_CODE: ' staff-room-2026 ' }).teacherSignup).toEqual({
      mode: 'code',
      code: 'staff-room-2026',
    });
    expect(loadConfig({ ...production, TEACHER_SIGNUP: 'open' }).teacherSignup).toEqual({ mode: 'open' });
    expect(
      loadConfig({ DATA_DIR: dataDir(), TEACHER_SIGNUP: 'domains: School.example, @staff.school.example' })
        .teacherSignup,
    ).toEqual({ mode: 'domains', domains: ['school.example', 'staff.school.example'] });
  });

  it('reads every documented variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      APP_ORIGIN: 'https://school.example/',
      DATA_DIR: dataDir(),
      DATABASE_URL: 'postgres://u@db:5432/app',
      REDIS_URL: 'redis://redis:6379',
      SMTP_URL: 'smtp://mail:1025',
      MAIL_FROM: 'School <noreply@school.example>',
      JWT_SECRET: 'y'.repeat(32),
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '1',
      WORKERS: '4',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      appOrigin: 'https://school.example',
      databaseUrl: 'postgres://u@db:5432/app',
      redisUrl: 'redis://redis:6379',
      smtpUrl: 'smtp://mail:1025',
      mailFrom: 'School <noreply@school.example>',
      logLevel: 'warn',
      trustProxy: 1,
      workers: 4,
    });
  });

  it('reads WORKERS as a count or auto (one per core), and leaves it unset by default', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).workers).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, WORKERS: '' }).workers).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, WORKERS: '2' }).workers).toBe(2);
    expect(loadConfig({ DATA_DIR: dir, WORKERS: 'auto' }).workers).toBe(availableParallelism());
  });

  it.each(['0', '-1', '2.5', 'many', '65'])('refuses WORKERS=%s, naming the variable', (value) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), WORKERS: value })).toThrow(
      /^WORKERS must be auto or a whole number from 1 to 64/,
    );
  });

  describe("the school's OpenID provider (OIDC_*, PASSWORD_SIGNIN)", () => {
    const school = {
      OIDC_ISSUER: 'https://login.school.example/realms/pupils',
      OIDC_CLIENT_ID: 'classwave',
      OIDC_CLIENT_SECRET: 's3cret',
      OIDC_ROLE_RULES:
        ' teacher:@Staff.School.example, student:@pupils.school.example,teacher:roles=Teacher ',
    };

    it('reads the provider, its role rules in order and the button name; passwords stay on', () => {
      const config = loadConfig({ DATA_DIR: dataDir(), ...school, OIDC_NAME: 'Northfield School' });
      expect(config.oidc).toEqual({
        issuer: school.OIDC_ISSUER,
        clientId: 'classwave',
        clientSecret: 's3cret',
        name: 'Northfield School',
        roleRules: [
          { role: 'teacher', domain: 'staff.school.example' },
          { role: 'student', domain: 'pupils.school.example' },
          { role: 'teacher', claim: 'roles', value: 'Teacher' },
        ],
      });
      expect(config.passwordSignin).toBe(true);
      expect(loadConfig({ DATA_DIR: dataDir(), ...school, PASSWORD_SIGNIN: 'off' }).passwordSignin).toBe(
        false,
      );
      expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({ oidc: undefined, passwordSignin: true });
    });

    it.each([
      [{ OIDC_ISSUER: 'not a url' }, /^OIDC_ISSUER must be a URL/],
      [
        { OIDC_ROLE_RULES: 'admin:@school.example' },
        /^OIDC_ROLE_RULES: "admin:@school.example" must start with/,
      ],
      [{ OIDC_ROLE_RULES: 'teacher:@' }, /names no e-mail domain/],
      [{ OIDC_ROLE_RULES: 'teacher:groups' }, /must be role:@domain or role:claim=value/],
      [{ OIDC_ROLE_RULES: ' , ' }, /^OIDC_ROLE_RULES must list at least one rule/],
      [{ OIDC_ROLE_RULES: '' }, /^OIDC_ROLE_RULES is required with OIDC_ISSUER/],
      [{ OIDC_CLIENT_ID: '' }, /^OIDC_CLIENT_ID is required/],
      [{ OIDC_CLIENT_SECRET: '' }, /^OIDC_CLIENT_SECRET is required/],
      [{ PASSWORD_SIGNIN: 'no' }, /^PASSWORD_SIGNIN must be one of on, off/],
    ])('refuses %o, naming the variable', (change, message) => {
      expect(() => loadConfig({ DATA_DIR: dataDir(), ...school, ...change })).toThrowError(message);
    });

    it('refuses a client without an issuer, passwords off without a provider, plain http in production', () => {
      expect(() => loadConfig({ DATA_DIR: dataDir(), OIDC_CLIENT_ID: 'x' })).toThrowError(
        /^OIDC_CLIENT_ID is set but OIDC_ISSUER is not/,
      );
      expect(() => loadConfig({ DATA_DIR: dataDir(), PASSWORD_SIGNIN: 'off' })).toThrowError(
        /^PASSWORD_SIGNIN=off needs OIDC_ISSUER/,
      );
      const production = {
        NODE_ENV: 'production',
        JWT_SECRET: 'x'.repeat(40),
        TEACHER_SIGNUP: 'open',
        DATA_DIR: dataDir(),
        ...school,
      };
      expect(() => loadConfig({ ...production, OIDC_ISSUER: 'http://login.school.example' })).toThrowError(
        /^OIDC_ISSUER must start with https:\/\//,
      );
      expect(loadConfig({ ...production, OIDC_ISSUER: 'http://127.0.0.1:9000' }).oidc?.issuer).toBe(
        'http://127.0.0.1:9000',
      );
    });
  });
});
