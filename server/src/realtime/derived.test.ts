import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEventType } from '@classwave/shared';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { DONE_BY_THE_WRITER } from '../events.js';

/**
 * An event recorded `{ derived: true }` runs no outbox rule: its writer does their work itself (a
 * grade and a Return, issue 30). A rule a module adds later for such a type would be skipped for
 * those writes without a word, so the app's rules of each such type must be exactly the ones the
 * writers stand in for (the typecheck keeps `derived` to the types listed there).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('events a writer records as derived', () => {
  it.each(Object.entries(DONE_BY_THE_WRITER))(
    '%s has no outbox rule but those its writers do themselves',
    (type, owners) => {
      expect(
        t.app.core.outbox.rulesOf(type as LiveEventType),
        `a rule for ${type} its derived writers skip (grades.ts, release.ts, assignments/create.ts): do its work there too`,
      ).toEqual(owners);
    },
  );
});
