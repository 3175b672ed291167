import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/support/app.js';
import { openDatabase, txQuery, txRows, type Statement } from './client.js';
import { rowsOf } from './rows.js';

const root = mkdtempSync(path.join(tmpdir(), 'classwave-db-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('openDatabase (embedded)', () => {
  it('creates a data directory that does not exist yet, and keeps data there', async () => {
    const dataDir = path.join(root, 'not', 'yet', 'there');
    const first = await openDatabase({ dataDir });
    await first.migrate();
    expect(await first.ping()).toBe(true);
    await first.close();
    expect(existsSync(dataDir)).toBe(true);
    const again = await openDatabase({ dataDir });
    expect(await again.ping()).toBe(true);
    await again.close();
  });
});

/**
 * A named statement inside a Drizzle transaction (txRows, issue 30): on PGlite by default, on the
 * PostgreSQL server with DATABASE_URL set, each on a fresh copy of the migrated template.
 */
describe('txRows: a named statement in a transaction', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.execute(sql`create table named_probe (id int primary key, note text, at timestamptz)`);
  });
  afterAll(() => database.dispose());

  const insert: Statement = {
    name: 'probe_insert_v1',
    text: 'insert into named_probe (id, note, at) values ($1, $2, $3::timestamptz) returning id, note, at',
  };
  const all: Statement = { name: 'probe_all_v1', text: 'select id, note from named_probe order by id' };

  it("sees the transaction's uncommitted writes, and rolls back with it", async () => {
    const rollback = new Error('roll back');
    let seen: unknown[] = [];
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into named_probe (id, note) values (1, 'by drizzle')`);
        const [made] = await txRows<{ id: number; note: string; at: string }>(tx, insert, [
          2,
          "it's named",
          '2026-11-27T20:00:00.000Z',
        ]);
        expect(made).toMatchObject({ id: 2, note: "it's named" });
        // Timestamps as text, as tx.execute answers them on both drivers.
        expect(typeof made!.at).toBe('string');
        seen = await txRows(tx, all, []);
        // Drizzle's statements in the same transaction see the named one's write too.
        const count = rowsOf<{ n: number }>(
          await tx.execute(sql`select count(*)::int as n from named_probe`),
        );
        expect(count[0]!.n).toBe(2);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(seen).toEqual([
      { id: 1, note: 'by drizzle' },
      { id: 2, note: "it's named" },
    ]);
    // Both writes rolled back; the statements stay prepared and answer again.
    expect(await txRows(database.db, all, [])).toEqual([]);
    await database.db.transaction(async (tx) => {
      await txRows(tx, insert, [3, null, null]);
    });
    expect(await txRows(database.db, all, [])).toEqual([{ id: 3, note: null }]);
  });

  it('refuses another text under a name it has run, naming the name, and the transaction goes on', async () => {
    await database.db.transaction(async (tx) => {
      expect(await txRows(tx, { name: 'probe_one_v1', text: 'select 1 as n' }, [])).toEqual([{ n: 1 }]);
      await expect(txRows(tx, { name: 'probe_one_v1', text: 'select 2 as n' }, [])).rejects.toThrow(
        /probe_one_v1 was prepared with another text/,
      );
      // Nothing was sent: the transaction is not aborted.
      expect(await txRows(tx, { name: 'probe_one_v1', text: 'select 1 as n' }, [])).toEqual([{ n: 1 }]);
    });
  });

  it("names each of a Drizzle statement's texts apart, and refuses one whose text varies with its input", async () => {
    // Two variants of one statement: each its own named statement, each answering its own rows.
    const pick = (odd: boolean, n: number) =>
      sql`select x from generate_series(1, ${n}::int) x where ${odd ? sql`x % 2 = 1` : sql`x % 2 = 0`} order by x`;
    for (let round = 0; round < 2; round++) {
      expect(await txQuery(database.db, 'probe_pick', pick(true, 4))).toEqual([{ x: 1 }, { x: 3 }]);
      expect(await txQuery(database.db, 'probe_pick', pick(false, 4))).toEqual([{ x: 2 }, { x: 4 }]);
    }
    // A value written into the text: eight texts are let through, the ninth is refused.
    const inline = (n: number) => sql`select ${sql.raw(String(n))}::int as x`;
    for (let n = 1; n <= 8; n++)
      expect(await txQuery(database.db, 'probe_inline', inline(n))).toEqual([{ x: n }]);
    await expect(txQuery(database.db, 'probe_inline', inline(9))).rejects.toThrow(
      /probe_inline compiled to more than 8 texts/,
    );
    expect(await txQuery(database.db, 'probe_inline', inline(3))).toEqual([{ x: 3 }]);
  });

  it('sends numbers, booleans and nulls as the same values on both drivers', async () => {
    const typed: Statement = {
      name: 'probe_typed_v1',
      text: 'select $1::int + 1 as n, not $2::boolean as b, $3::text is null as none, $4::jsonb as j',
    };
    expect(await txRows(database.db, typed, [41, false, null, '{"a":[1]}'])).toEqual([
      { n: 42, b: true, none: true, j: { a: [1] } },
    ]);
  });

  it('runs on every connection that holds a transaction, each preparing its own', async () => {
    const who: Statement = {
      name: 'probe_who_v1',
      text: `select pg_backend_pid() as pid,
        (select count(*)::int from pg_prepared_statements where name = 'probe_who_v1') as prepared`,
    };
    type Who = { pid: number; prepared: number };
    if (database.kind === 'pglite') {
      // One connection: the second transaction finds it prepared by the first.
      const [first] = await database.db.transaction((tx) => txRows<Who>(tx, who, []));
      const [second] = await database.db.transaction((tx) => txRows<Who>(tx, who, []));
      expect(second).toEqual(first);
      expect(first!.prepared).toBe(1);
      return;
    }
    // Two transactions held open at once, so on two connections of the pool.
    let arrived = 0;
    let release!: () => void;
    const bothIn = new Promise<void>((resolve) => (release = resolve));
    const hold = () =>
      database.db.transaction(async (tx) => {
        if (++arrived === 2) release();
        await bothIn;
        return (await txRows<Who>(tx, who, []))[0]!;
      });
    const [a, b] = await Promise.all([hold(), hold()]);
    expect(a!.pid).not.toBe(b!.pid);
    expect([a!.prepared, b!.prepared]).toEqual([1, 1]);
  });
});
