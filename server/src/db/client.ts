import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  PGlite,
  types,
  type QueryOptions,
  type Transaction as PgliteTransaction,
} from '@electric-sql/pglite';
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

/**
 * A hot read written in SQL: `name` identifies it (PostgreSQL prepares it once per connection under
 * that name), `text` is the SQL with `$1…` parameters.
 */
export interface Statement {
  name: string;
  text: string;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Runs a hot read outside Drizzle (its row mapping costs more than the query on the hottest
   * lists): rows as objects keyed by column name, text and numbers as the driver returns them.
   * Select timestamps as text (`isoText` in SQL): the two drivers parse them differently.
   */
  rows<R>(statement: Statement, params: readonly string[]): Promise<R[]>;
  /** Applies the committed migrations; safe to call from several processes at once. */
  migrate(): Promise<void>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * SQL for a `timestamptz` as the API writes it (`Date#toISOString`: UTC, milliseconds, `Z`);
 * PostgreSQL truncates the microseconds to milliseconds as a JavaScript `Date` does.
 */
export const isoText = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

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
    parsers: DRIZZLE_PGLITE_PARSERS,
  });
  await client.waitReady;
  // PGlite's start-up replaces every array type's parser (`_initArrayTypes`), the array entries of
  // Drizzle's table with them: set the table once more now that it is ready.
  Object.assign(client.parsers, DRIZZLE_PGLITE_PARSERS);
  const drizzleClient = withoutPerQueryParsers(client);
  const db = drizzlePglite({ client: drizzleClient, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    rows: preparedOnPglite(client),
    migrate: () =>
      migratePglite(drizzlePglite({ client: drizzleClient, schema }), {
        migrationsFolder: MIGRATIONS_FOLDER,
      }),
    ping: () => ping(db),
    close: () => client.close(),
  };
}

/**
 * What Drizzle's PGlite driver passes as `parsers` with every query (drizzle-orm 0.45,
 * pglite/session.js): dates, times and intervals stay the text PostgreSQL sends, and Drizzle's
 * columns map them. PGlite merges per-query parsers into a copy of its whole parser table on every
 * query (about 220 µs), so the instance gets them once instead and Drizzle's are dropped.
 */
const identity = (value: string) => value;
const DRIZZLE_PGLITE_PARSERS: Record<number, (value: string) => unknown> = {
  [types.TIMESTAMP]: identity,
  [types.TIMESTAMPTZ]: identity,
  [types.INTERVAL]: identity,
  [types.DATE]: identity,
  1231: identity, // numeric[]
  1115: identity, // timestamp[]
  1185: identity, // timestamptz[]
  1187: identity, // interval[]
  1182: identity, // date[]
};

/**
 * `Database.rows` on PGlite: each statement really prepared (`PREPARE` once, then `EXECUTE`), so
 * PostgreSQL does not parse and plan it again per request (PGlite's `query` uses the unnamed
 * statement each time, and Drizzle's `.prepare()` prepares nothing there). `EXECUTE` takes no bind
 * parameters, so the values go in as quoted literals: standard_conforming_strings is on, and
 * doubling the single quotes is the whole of the quoting; a NUL byte cannot be written and is
 * refused.
 */
function preparedOnPglite(client: PGlite) {
  const prepared = new Map<string, Promise<unknown>>();
  return async <R>(statement: Statement, params: readonly string[]): Promise<R[]> => {
    let ready = prepared.get(statement.name);
    if (!ready) {
      ready = client.exec(`prepare ${statement.name} as ${statement.text}`);
      prepared.set(statement.name, ready);
      ready.catch(() => prepared.delete(statement.name));
    }
    await ready;
    const literals = params.map((value) => {
      if (value.includes('\0')) throw new Error('a NUL byte cannot be a statement parameter');
      return `'${value.replaceAll("'", "''")}'`;
    });
    const execute = literals.length
      ? `execute ${statement.name}(${literals.join(', ')})`
      : `execute ${statement.name}`;
    return (await client.query<R>(execute)).rows;
  };
}

/**
 * A PGlite client (or one of its transactions) as Drizzle's driver gets it: `query` without the
 * per-query `parsers` (the instance has the same ones, `DRIZZLE_PGLITE_PARSERS`, so results are
 * identical; `rowMode` and any other option are kept), and `transaction` handing its callback a
 * transaction wrapped the same way. Everything else is the client's own.
 */
function withoutPerQueryParsers<C extends PGlite | PgliteTransaction>(client: C): C {
  const query = (text: string, params?: unknown[], options?: QueryOptions) => {
    if (!options?.parsers) return client.query(text, params, options);
    const { parsers: _dropped, ...kept } = options;
    return client.query(text, params, kept);
  };
  const transaction =
    'transaction' in client
      ? <T>(callback: (tx: PgliteTransaction) => Promise<T>) =>
          client.transaction((tx) => callback(withoutPerQueryParsers(tx)))
      : undefined;
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      if (property === 'transaction' && transaction) return transaction;
      const value: unknown = Reflect.get(target, property, target);
      // PGlite's methods use private fields: they must run on the client itself.
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
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
    rows: async <R>(statement: Statement, params: readonly string[]) =>
      (
        await pool.query<R & pg.QueryResultRow>({
          name: statement.name,
          text: statement.text,
          values: params as string[],
        })
      ).rows,
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
