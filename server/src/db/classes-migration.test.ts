import { PGlite } from '@electric-sql/pglite';
import { describe, it } from 'vitest';
import { migrateWithData } from '../../test/support/classes-migration.js';

describe('migration 0002 (classes) on existing data', () => {
  // A fresh PGlite (not the migrated template copy the other tests use) starts slowly on a busy machine.
  it(
    'gives every course a join code and makes students who submitted its active members (PGlite)',
    { timeout: 120_000 },
    async () => {
      const db = new PGlite();
      try {
        await migrateWithData(async (text) => (await db.query<Record<string, unknown>>(text)).rows);
      } finally {
        await db.close();
      }
    },
  );
});
