/**
 * The real server as a child process, for the reliability pass: `node server/dist/main.js`, the
 * production entry point, killed with SIGKILL and started again on the same port, data directory or
 * database, and JWT secret. The build, not tsx: it is what runs in production, and it starts 1.5–3 s
 * sooner, which over the 20-odd restarts of a CI run is most of a minute. `npm run test:reliability`
 * builds first (`tsc -b`); a build older than its sources is refused rather than tested.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const mainJs = path.join(repoRoot, 'server/dist/main.js');

/** The newest modification time among a package's built sources (tests are not built). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || !file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    // Test helpers are not built into dist.
    if (/[\\/]src[\\/](test|reliability)[\\/]/.test(file)) continue;
    newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

/** Throws unless server/dist was built after the last change to server/src and shared/src. */
export function assertBuildIsCurrent(): void {
  const built = (pkg: string) => {
    try {
      return statSync(path.join(repoRoot, pkg, 'tsconfig.tsbuildinfo')).mtimeMs;
    } catch {
      return 0;
    }
  };
  for (const pkg of ['shared', 'server']) {
    if (newestSource(path.join(repoRoot, pkg, 'src')) > built(pkg)) {
      throw new Error(
        `${pkg}/dist is missing or older than ${pkg}/src: run \`npx tsc -b\` first (npm run test:reliability does)`,
      );
    }
  }
}

/** A port nobody listens on right now (the server keeps it across its restarts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface ChildServerOptions {
  port: number;
  /** PGlite's directory (and where a missing JWT secret would go); used unless `databaseUrl` is set. */
  dataDir: string;
  databaseUrl?: string | undefined;
  smtpUrl: string;
  jwtSecret: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ChildServer {
  readonly url: string;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  /** The tail of the server's output across all its lives, for a failing test's message. */
  private log: string[] = [];
  /** What the server logged at error level or above, and any output that is not a log line. */
  readonly errors: string[] = [];
  /** How many times the process was started, and how long each start took until healthy. */
  readonly startMs: number[] = [];

  constructor(private readonly options: ChildServerOptions) {
    assertBuildIsCurrent();
    this.url = `http://127.0.0.1:${options.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the server and resolves once /api/health answers 200. */
  async start(timeoutMs = 90_000): Promise<void> {
    if (this.running) throw new Error('the server is already running');
    const began = Date.now();
    const o = this.options;
    const child = spawn(process.execPath, [mainJs], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        PORT: String(o.port),
        HOST: '127.0.0.1',
        APP_ORIGIN: this.url,
        DATA_DIR: o.dataDir,
        DATABASE_URL: o.databaseUrl ?? '',
        SMTP_URL: o.smtpUrl,
        JWT_SECRET: o.jwtSecret,
        // Each simulated student comes from its own address, as in a school: sign-up limits are per address.
        TRUST_PROXY: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        this.log.push(line.slice(0, 1500));
        // pino's error and fatal levels (50, 60), and anything that is not a log line (a crash's stack).
        if (!line.startsWith('{') || /"level":[56]0/.test(line)) this.errors.push(line.slice(0, 3000));
      }
      if (this.log.length > 200) this.log.splice(0, this.log.length - 200);
      if (this.errors.length > 100) this.errors.splice(0, this.errors.length - 100);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.log.push(`--- started pid ${child.pid}`);

    const deadline = began + timeoutMs;
    for (;;) {
      if (!this.running) throw new Error(`the server exited before it was ready:\n${this.output()}`);
      try {
        const res = await fetch(`${this.url}/api/health`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await this.kill();
        throw new Error(`the server was not healthy within ${timeoutMs} ms:\n${this.output()}`);
      }
      await sleep(100);
    }
    this.startMs.push(Date.now() - began);
  }

  /** SIGKILL: no shutdown hook runs, in-flight requests are cut off. Resolves once the process is gone. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.log.push(`--- SIGKILL pid ${this.child?.pid}`);
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  /** A graceful stop (SIGTERM), escalating to SIGKILL. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.child?.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(timer);
  }

  /** The server's errors (or, with none, the tail of its output), for a failing test's message. */
  output(): string {
    const lines = this.errors.length > 0 ? this.errors.slice(-30) : this.log.slice(-40);
    return lines.join('\n');
  }
}
