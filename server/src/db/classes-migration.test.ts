import { PGlite } from '@electric-sql/pglite';
import { describe, it } from 'vitest';
import { migrateWithData } from '../test/classes-migration.js';

describe('migration 0002 (classes) on existing data', () => {
  it('gives every course a join code and makes students who submitted its active members (PGlite)', async () => {
    const db = new PGlite();
    try {
      await migrateWithData(async (text) => (await db.query<Record<string, unknown>>(text)).rows);
    } finally {
      await db.close();
    }
  });
});
