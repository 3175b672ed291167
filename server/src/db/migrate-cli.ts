/** `npm run db:migrate`: applies the committed migrations to the configured database and exits. */
import { loadConfig } from '../config.js';
import { openDatabase } from './client.js';
import path from 'node:path';

const config = loadConfig();
const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: path.join(config.dataDir, 'pglite'),
});
await database.migrate();
await database.close();
console.log(
  `Migrations applied to the ${database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL server'}.`,
);
