/**
 * Runs once per test run: migrates a template database so each test app starts from a copy
 * instead of migrating again. PGlite: a dump of a migrated data directory. PostgreSQL server
 * (DATABASE_URL set): a migrated template database, copied per test app and dropped after.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { openDatabase } from '../../src/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string | null;
  }
}

export function databaseUrlWithName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'classwave-test-'));
  const template = await openDatabase({});
  await template.migrate();
  const dump = await (
    template.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }
  ).$client.dumpDataDir('none');
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await template.close();
  project.provide('pgliteTemplate', file);

  const url = process.env.DATABASE_URL;
  let templateName: string | null = null;
  if (url) {
    templateName = `${new URL(url).pathname.slice(1) || 'classwave'}_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists "${templateName}"`);
    await admin.query(`create database "${templateName}"`);
    await admin.end();
    const db = await openDatabase({ url: databaseUrlWithName(url, templateName), poolSize: 1 });
    await db.migrate();
    await db.close();
  }
  project.provide('postgresTemplate', templateName);

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (url && templateName) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`drop database if exists "${templateName}" with (force)`);
      await admin.end();
    }
  };
}
