import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** The Drizzle handle services use; the same API over PGlite and a PostgreSQL server. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle: what `db.transaction` hands its callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the committed migrations; safe to call from several processes at once. */
  migrate(): Promise<void>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));
/** Any fixed number: serialises migrations when several server processes start together. */
const MIGRATION_LOCK_KEY = 727_274_001;

export interface DatabaseOptions {
  /** A PostgreSQL server URL; without it an embedded PGlite database is used. */
  url?: string | undefined;
  /** PGlite only: a directory to keep data in (omit for an in-memory database). */
  dataDir?: string | undefined;
  /** PGlite only: start from a dump made by `dumpDataDir` (tests use a migrated template). */
  loadDataDir?: Blob | File | undefined;
  /** node-postgres pool size. */
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options.poolSize ?? 10) : openPglite(options);
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  // DATA_DIR need not exist yet (with JWT_SECRET given, nothing else creates it first).
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = new PGlite({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER }),
    ping: () => ping(db),
    close: () => client.close(),
  };
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // A client losing its connection (say, the server restarted) must not crash the process. The pool
  // listens only while a client is idle; one checked out (mid-transaction) would otherwise emit an
  // unhandled 'error'. The query in flight fails by itself, and the pool drops the broken client.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const pgDb = drizzlePg({ client: pool, schema });
  const db = pgDb as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async migrate() {
      const conn = await pool.connect();
      try {
        await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg({ client: conn, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        conn.release();
      }
    },
    ping: () => ping(db),
    close: () => pool.end(),
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
