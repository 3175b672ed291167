import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Core } from './core.js';

/** A module's routes: a Fastify plugin given the app's core, registered under `/api`. */
export type ModuleRoutes = FastifyPluginAsyncTypebox<{ core: Core }>;

/** What a module's `setup` hands back to be run when the app closes (before the core closes). */
export type Teardown = () => void | Promise<void>;

/**
 * One feature of the product (DESIGN §16): its routes, and what it wires into the core once per
 * app (bus subscriptions, socket handlers, job kinds, the outbox's rules). `buildApp` lists the
 * modules; adding a feature is a folder and one entry in that list.
 */
export interface AppModule {
  /** Names the module in logs and in the README's list. */
  name: string;
  /** Routes for signed-in callers: they run behind the authenticate hook. */
  routes?: ModuleRoutes;
  /** Routes anyone may call (sign-in, a calendar app's feed): no authenticate hook. */
  publicRoutes?: ModuleRoutes;
  /**
   * A rule every signed-in route runs before its handler, once the caller is known and the input
   * validated; it throws the AppError to answer with (the archive's read-only rule, DESIGN §20).
   */
  guard?(core: Core): (request: FastifyRequest) => Promise<void>;
  /** Runs once per app before any route is registered; returns what to undo when it closes. */
  setup?(core: Core): Teardown | void;
}

/**
 * A part of a module made once per app (per core) and shared by whoever asks: the module's own
 * setup and routes, or another module reaching it through the function it exports (the courses'
 * page reads the assignments' read model this way). Made on first use, in the app's start-up.
 */
export function perApp<T>(make: (core: Core) => T): (core: Core) => T {
  const made = new WeakMap<Core, T>();
  return (core) => {
    let part = made.get(core);
    if (part === undefined) {
      part = make(core);
      made.set(core, part);
    }
    return part;
  };
}
