// The denominator of issue 30's ratios: bare Fastify serving S1's 50-item assignment list (the
// `fastify /assignments` variant of S1: closed loop, autocannon, 20 connections, on the app core).
// A scenario interleaves it with its own variants, so each ratio is measured in one run.
import { startBaseline } from './servers.mjs';
import { trial } from './trial.mjs';

export const BARE_LIST = 'fastify /assignments';
const CONNECTIONS = 20;

/**
 * Starts the bare Fastify baseline (stopped by `cleanups`); returns the trial to interleave. Each
 * run gives `rps` (its highest rate: closed loop), `latency.p99` and, per request,
 * `cpu.server / requests`.
 */
export async function bareFastifyList(cleanups, loadgen, { quick }) {
  const fastify = await startBaseline('fastify');
  cleanups.add(() => fastify.stop());
  const res = await loadgen.call('fetch', { url: `${fastify.url}/assignments` });
  if (res.status !== 200 || JSON.parse(res.body).length !== 50)
    throw new Error(`bare Fastify /assignments: ${res.status}`);
  const duration = quick ? 1 : 2;
  return () =>
    trial({ serverPids: [fastify.pid], loadgen }, () =>
      loadgen.call('autocannon', {
        url: `${fastify.url}/assignments`,
        connections: CONNECTIONS,
        duration,
      }),
    );
}

/** Per-request CPU of a bare-list run, in seconds. */
export const bareCpu = (r) => r.cpu.server / r.requests;
