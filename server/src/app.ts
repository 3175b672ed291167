import type { FastifyInstance } from 'fastify';
import { archive } from './archive/module.js';
import { assignments } from './assignments/module.js';
import { auth } from './auth/module.js';
import { bin } from './bin/module.js';
import { calendar } from './calendar/module.js';
import { categories } from './categories/module.js';
import { chat } from './chat/module.js';
import { classes } from './classes/module.js';
import type { Config } from './config.js';
import { createCore, type AppOptions } from './core.js';
import { conversations } from './conversations/module.js';
import { coTeachers } from './coteachers/module.js';
import { roster } from './roster/module.js';
import { courses } from './courses/module.js';
import { dashboard } from './dashboard/module.js';
import { files } from './files/module.js';
import { grading } from './grading/module.js';
import { lessons } from './lessons/module.js';
import { builtClient, serveClient } from './http/client.js';
import { registerPlatform } from './http/platform.js';
import { createHttpServer } from './http/server.js';
import { me } from './me/module.js';
import { installModules } from './modules.js';
import { notifications } from './notifications/module.js';
import { panel } from './panel/module.js';
import { realtime } from './realtime/module.js';
import { rubrics } from './rubrics/module.js';
import { submissions } from './submissions/module.js';
import { todo } from './todo/module.js';

export type { AppOptions } from './core.js';

/**
 * Builds the whole app without listening, so tests and main.ts share it (DESIGN §16): the HTTP
 * server, the core every module stands on, what serves all modules (rate limits, OpenAPI, health),
 * the modules under /api, and the built web app. A new feature is a folder and a line below.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const client = builtClient(config);
  const app = createHttpServer(config, client);
  const core = await createCore(app, config, options);
  await registerPlatform(app, core);
  await installModules(app, core, [
    auth,
    me,
    courses,
    classes,
    coTeachers,
    roster,
    assignments,
    bin,
    archive,
    submissions,
    files,
    rubrics,
    grading,
    categories,
    conversations,
    lessons,
    panel,
    dashboard,
    notifications,
    todo,
    calendar,
    chat,
    realtime,
  ]);
  serveClient(app, client);
  return app;
}
