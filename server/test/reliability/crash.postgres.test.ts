/** The crash scenario of crash.test.ts on the PostgreSQL server (this pass includes it when DATABASE_URL is set). */
import { afterEach, describe, it } from 'vitest';
import { cleanups, crashScenario, expectNothingLost, ROUNDS, undoAll } from './crash-scenario.js';
import { scratchDatabase } from './postgres.js';

afterEach(undoAll);

describe('a server killed with SIGKILL at random moments under load', () => {
  it(`on the PostgreSQL server: keeps every acknowledged write exactly once, and every tab shows it (${ROUNDS} kills)`, async () => {
    const database = await scratchDatabase(process.env.DATABASE_URL!, 'crash');
    cleanups.push(database.drop);
    expectNothingLost(await crashScenario(database.url));
  });
});
