/**
 * The PostgreSQL server for the reliability pass: a database of its own per scenario, and the
 * local cluster behind DATABASE_URL restarted the hard way (`pg_ctlcluster … restart -m immediate`).
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

function withName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Creates an empty database next to the one DATABASE_URL names; returns its URL and how to drop it. */
export async function scratchDatabase(url: string, label: string) {
  const name = `${new URL(url).pathname.slice(1) || 'classwave'}_${label}_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists "${name}" with (force)`);
  await admin(`create database "${name}"`);
  return { url: withName(url, name), drop: () => admin(`drop database if exists "${name}" with (force)`) };
}

/**
 * The local cluster to restart: PG_CLUSTER ("15/main") or the only version under /etc/postgresql.
 * DATABASE_URL must point at this machine, or restarting the local cluster would prove nothing.
 */
export function localCluster(url: string): { version: string; name: string } {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
    throw new Error(
      `DATABASE_URL points at ${host}; the restart scenario needs the PostgreSQL server on this machine`,
    );
  }
  const configured = process.env.PG_CLUSTER;
  if (configured) {
    const [version, name] = configured.split('/');
    if (!version || !name) throw new Error(`PG_CLUSTER must look like 15/main (got "${configured}")`);
    return { version, name };
  }
  const versions = readdirSync('/etc/postgresql');
  if (versions.length !== 1) throw new Error(`set PG_CLUSTER: found clusters for ${versions.join(', ')}`);
  return { version: versions[0]!, name: 'main' };
}

/** pg_ctlcluster, bypassing systemd (there is none in CI containers). */
export async function pgCtlCluster(cluster: { version: string; name: string }, ...args: string[]) {
  const began = Date.now();
  await run('pg_ctlcluster', ['--skip-systemctl-redirect', cluster.version, cluster.name, ...args], {
    timeout: 120_000,
  });
  return Date.now() - began;
}

/** True when a new connection can run a query. */
export async function accepting(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Starts the cluster if it is down (a failed test must not leave the machine without PostgreSQL). */
export async function ensureRunning(url: string, cluster: { version: string; name: string }): Promise<void> {
  if (await accepting(url)) return;
  await pgCtlCluster(cluster, 'start').catch(() => {});
  const deadline = Date.now() + 60_000;
  while (!(await accepting(url))) {
    if (Date.now() > deadline) throw new Error('PostgreSQL did not come back within 60 s');
    await new Promise((r) => setTimeout(r, 500));
  }
}
