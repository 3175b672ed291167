import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';

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
