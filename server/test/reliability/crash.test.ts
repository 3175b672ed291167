import { afterEach, describe, it } from 'vitest';
import { crashScenario, expectNothingLost, ROUNDS, undoAll } from './crash-scenario.js';

/**
 * The real server as a child process under a steady stream of submissions, grades and new
 * assignments from dozens of simulated people, killed with SIGKILL at random moments and started
 * again on the same data. Afterwards every write that was answered with a 2xx must be stored exactly
 * once with the values it was answered with, retries of unanswered writes must not have doubled
 * anything, and every open tab must end up showing each acknowledged write exactly once — through
 * the catch-up it makes after each reconnect.
 *
 * CRASH_ROUNDS sets the number of kills: 10 by default and in CI, 30 through `npm run test:reliability`.
 */
afterEach(undoAll);

describe('a server killed with SIGKILL at random moments under load', () => {
  it(`on PGlite: keeps every acknowledged write exactly once, and every tab shows it (${ROUNDS} kills)`, async () => {
    expectNothingLost(await crashScenario(undefined));
  });
});
