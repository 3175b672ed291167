import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  PGlite,
  types,
  type QueryOptions,
  type Transaction as PgliteTransaction,
} from '@electric-sql/pglite';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql, type Logger, type SQL } from 'drizzle-orm';
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

/** A parameter of a named statement: what both drivers send as the same text. */
export type StatementParam = string | number | boolean | null;

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
  const prepared = preparedOnPglite();
  const drizzleClient = withoutPerQueryParsers(client, prepared);
  const db = drizzlePglite({ client: drizzleClient, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    rows: (statement, params) => prepared(client, statement, params),
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
function preparedOnPglite() {
  const prepared = new Map<string, Promise<unknown>>();
  /**
   * `on`: the database itself, or one of its transactions (txRows): PGlite is one connection, so a
   * statement prepared in either is there for both, and a `PREPARE` is not undone by a rollback.
   */
  return async <R>(
    on: Pick<PGlite | PgliteTransaction, 'exec' | 'query'>,
    statement: Statement,
    params: readonly StatementParam[],
  ): Promise<R[]> => {
    let ready = prepared.get(statement.name);
    if (!ready) {
      ready = on.exec(`prepare ${statement.name} as ${statement.text}`);
      prepared.set(statement.name, ready);
      ready.catch(() => prepared.delete(statement.name));
    }
    await ready;
    const literals = params.map((value) => {
      if (value === null) return 'null';
      if (typeof value !== 'string') {
        if (typeof value === 'object')
          throw new Error('an object or array cannot be a statement parameter here: pass its text');
        return `'${String(value)}'`;
      }
      if (value.includes('\0')) throw new Error('a NUL byte cannot be a statement parameter');
      return `'${value.replaceAll("'", "''")}'`;
    });
    const execute = literals.length
      ? `execute ${statement.name}(${literals.join(', ')})`
      : `execute ${statement.name}`;
    return (await on.query<R>(execute)).rows;
  };
}
type PreparedOnPglite = ReturnType<typeof preparedOnPglite>;

/**
 * A PGlite client (or one of its transactions) as Drizzle's driver gets it: `query` without the
 * per-query `parsers` (the instance has the same ones, `DRIZZLE_PGLITE_PARSERS`, so results are
 * identical; `rowMode` and any other option are kept), and `transaction` handing its callback a
 * transaction wrapped the same way. Everything else is the client's own.
 */
function withoutPerQueryParsers<C extends PGlite | PgliteTransaction>(
  client: C,
  prepared: PreparedOnPglite,
): C {
  const query = (text: string, params?: unknown[], options?: QueryOptions) => {
    if (!options?.parsers) return client.query(text, params, options);
    const { parsers: _dropped, ...kept } = options;
    return client.query(text, params, kept);
  };
  const transaction =
    'transaction' in client
      ? <T>(callback: (tx: PgliteTransaction) => Promise<T>) =>
          client.transaction((tx) => callback(withoutPerQueryParsers(tx, prepared)))
      : undefined;
  const named: NamedRunner[typeof NAMED] = (statement, params) => prepared(client, statement, params);
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      if (property === NAMED) return named;
      if (property === 'transaction' && transaction) return transaction;
      const value: unknown = Reflect.get(target, property, target);
      // PGlite's methods use private fields: they must run on the client itself.
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5000,
    // Kept five minutes idle rather than pg's 10 s: a new connection parses and plans every named
    // statement again (its first five runs on custom plans) after each lull of the school day.
    idleTimeoutMillis: 300_000,
  });
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

/**
 * Runs a hot write's statement (or any statement) as a named prepared statement on the connection
 * `tx` holds, inside its transaction (issue 30, DESIGN §22): PostgreSQL parses and plans it once
 * per connection, then runs the cached plan (a generic one after its fifth run, unless custom plans
 * come out much cheaper), where `tx.execute` sends it as the unnamed statement and has it parsed
 * and planned on every run — for the writes' large statements the planning cost more than the
 * execution. It sees the transaction's uncommitted writes and rolls back with it, as any statement
 * of the transaction does. Rows as `tx.execute` answers them (timestamps as text).
 *
 * The text must be fixed for the name, parameters as `$n`: a name once used with one text is
 * refused with another (an Error naming it), on both drivers and whichever connection runs it, so
 * a text that varies with its input shows up as an error rather than as prepared statements piling
 * up per connection. A variant of a statement (a clause there or not) is a name of its own. On
 * node-postgres the statement goes through the transaction's own `pg` client by name (`{ name,
 * text, values }`); on PGlite as `Database.rows` runs it (`PREPARE` once per database, then
 * `EXECUTE` with the values as literals, so no array values: pass an array as its text). Drizzle's
 * logger sees it as it sees `tx.execute`'s statements (the statement-count tests read it).
 */
export async function txRows<R>(
  tx: Db | Tx,
  statement: Statement,
  params: readonly StatementParam[],
): Promise<R[]> {
  const known = statementTexts.get(statement.name);
  if (known === undefined) statementTexts.set(statement.name, statement.text);
  else if (known !== statement.text)
    throw new Error(
      `the named statement ${statement.name} was prepared with another text: a named statement's text must not vary (parameters as $n); give each variant its own name`,
    );
  const session = (tx as unknown as { session: { client: unknown; logger: Logger } }).session;
  session.logger.logQuery(statement.text, params as unknown[]);
  const client = session.client as Partial<NamedRunner> & pg.ClientBase;
  const named = client[NAMED];
  if (named) return named<R>(statement, params);
  return (
    await client.query<R & pg.QueryResultRow>({
      name: statement.name,
      text: statement.text,
      values: params as StatementParam[],
      types: DRIZZLE_PG_TYPES,
    })
  ).rows;
}

/**
 * txRows for a statement written with Drizzle's `sql` (its values become `$n` parameters, compiled
 * as `tx.execute` compiles them). Each text it compiles to is a named statement of its own,
 * `<base>_<n>` in the order this process first met them, so its variants (a clause there or not, an
 * update setting other columns) need no names of their own. At most `MAX_VARIANTS` texts a base:
 * past that, an Error naming it says its text varies with its input (a value written into the
 * text, a list of rows), which would prepare a statement per request.
 */
export async function txQuery<R>(tx: Db | Tx, base: string, query: SQL): Promise<R[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  let names = variantNames.get(base);
  if (!names) variantNames.set(base, (names = new Map()));
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_VARIANTS)
      throw new Error(
        `the statement ${base} compiled to more than ${MAX_VARIANTS} texts: its text varies with its input (write values as parameters, a list as an array's text)`,
      );
    name = `${base}_${names.size + 1}`;
    names.set(text, name);
  }
  return txRows<R>(tx, { name, text }, params as StatementParam[]);
}

const MAX_VARIANTS = 8;
/** txQuery's statements: by base, each text's name. */
const variantNames = new Map<string, Map<string, string>>();
const dialect = new PgDialect();
/** Every named statement's text, by name, in this process: a name is one text (txRows). */
const statementTexts = new Map<string, string>();
/** How a PGlite client runs a named statement (its own map of those prepared). */
const NAMED = Symbol('classwave.named');
interface NamedRunner {
  [NAMED]: <R>(statement: Statement, params: readonly StatementParam[]) => Promise<R[]>;
}
/** node-postgres: dates, times and intervals as text, as Drizzle's driver reads them. */
const TEXT_TYPES = new Set<number>([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231,
  1115,
  1185,
  1187,
  1182,
]);
const DRIZZLE_PG_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.has(oid)
      ? identity
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
