/** Runs only against the PostgreSQL server (vitest.config.ts includes it when DATABASE_URL is set). */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';
import { migrateWithData } from '../../test/support/classes-migration.js';

describe('migration 0002 (classes) on existing data, on PostgreSQL', () => {
  it('gives every course a join code and makes students who submitted its active members', async () => {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const name = `classes_migration_${randomUUID().slice(0, 8)}`;
    await admin.query(`create database "${name}"`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    try {
      await client.connect();
      await migrateWithData(async (text) => (await client.query(text)).rows);
    } finally {
      await client.end();
      await admin.query(`drop database "${name}"`);
      await admin.end();
    }
  });
});
