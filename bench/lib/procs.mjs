// Child processes pinned to a core, their CPU time from /proc, and per-core busy time.
// Every child started here is killed when the orchestrator exits, whatever the reason.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BENCH = path.join(ROOT, 'bench');
export const PROBE = path.join(BENCH, 'lib/probe.mjs');
export const APP_CORE = 0;
export const LOAD_CORE = 1;
const TICKS_PER_SECOND = 100; // getconf CLK_TCK

const children = new Set();
const exitHooks = [];
/** Synchronous work to do when the orchestrator exits or is interrupted (e.g. dropping databases). */
export const onExitSync = (fn) => exitHooks.push(fn);

/** The children still running, killed with SIGKILL on exit (a last resort: scenarios stop them politely). */
function killAllNow() {
  for (const child of children) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  children.clear();
  while (exitHooks.length) {
    try {
      exitHooks.pop()();
    } catch {
      /* best effort */
    }
  }
}
process.on('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    killAllNow();
    process.exit(130);
  });
}

/**
 * Starts `node <args>` pinned to `core` (taskset), with the open-file limit raised as far as allowed.
 * `exec` keeps the pid: child.pid is node's own, so /proc/<pid>/stat is the process measured.
 */
export function startNode(name, core, args, { env = {}, ipc = false, quiet = false } = {}) {
  const quoted = [process.execPath, ...args].map((a) => `'${String(a).replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('bash', ['-c', `ulimit -n hard 2>/dev/null; exec taskset -c ${core} ${quoted}`], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? ['ipc'] : [])],
  });
  child.benchName = name;
  children.add(child);
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000);
    if (!quiet && process.env.BENCH_VERBOSE) process.stderr.write(`[${name}] ${chunk}`);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.output = () => output;
  child.exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  return child;
}

/** Stops a child: SIGTERM, then SIGKILL after `graceMs`. */
export async function stop(child, graceMs = 5000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, graceMs);
  await child.exited;
  clearTimeout(timer);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a URL until it answers (any status), or throws with the child's output after `timeoutMs`. */
export async function waitForHttp(url, child, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null))
      throw new Error(`${child.benchName} exited early:\n${child.output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms\n${child?.output() ?? ''}`);
}

/**
 * CPU seconds a process has used so far, all threads: the sum of each thread's run time from
 * /proc/<pid>/task/<tid>/schedstat (nanoseconds; the same quantity as utime + stime in
 * /proc/<pid>/stat, whose 10 ms ticks are too coarse for short runs). 0 when the process is gone.
 */
export function cpuSeconds(pid) {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`))
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        /* the thread just ended */
      }
    return ns / 1e9;
  } catch {
    return statCpuSeconds(pid);
  }
}

/** utime + stime from /proc/<pid>/stat, in seconds (10 ms resolution). */
export function statCpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Resident set size of a process in bytes. */
export function rssBytes(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) * 1024;
  } catch {
    return 0;
  }
}

/** Busy and total jiffies per core, from /proc/stat. */
function coreTimes() {
  const cores = {};
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    const m = /^cpu(\d+) (.*)$/.exec(line);
    if (!m) continue;
    const v = m[2].trim().split(/\s+/).map(Number);
    const idle = v[3] + v[4];
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
    cores[m[1]] = { busy: total - idle, total };
  }
  return cores;
}

/**
 * Starts measuring CPU: of the given processes (by pid) and of every core. `end()` returns CPU
 * seconds per named process, each core's busy fraction, and the wall time.
 */
export function cpuMeter(pids) {
  const start = { wall: performance.now(), cores: coreTimes(), procs: {} };
  for (const [name, pid] of Object.entries(pids)) start.procs[name] = cpuSeconds(pid);
  return {
    end() {
      const wall = (performance.now() - start.wall) / 1000;
      const cores = coreTimes();
      const busy = {};
      for (const [id, t] of Object.entries(cores)) {
        const d = t.total - start.cores[id].total;
        busy[id] = d > 0 ? (t.busy - start.cores[id].busy) / d : 0;
      }
      const procs = {};
      for (const [name, pid] of Object.entries(pids)) procs[name] = cpuSeconds(pid) - start.procs[name];
      return { wall, procs, busy };
    },
  };
}

/** Cleanups run last-in first-out; one failing does not stop the others. */
export function cleanupStack() {
  const fns = [];
  return {
    add: (fn) => fns.push(fn),
    async run() {
      while (fns.length) {
        const fn = fns.pop();
        try {
          await fn();
        } catch (error) {
          console.error(`cleanup: ${error.message}`);
        }
      }
    },
  };
}

/** The processes a cluster primary forked (its workers), from /proc. */
export function childPids(pid) {
  const pids = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      pids.push(
        ...readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8')
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map(Number),
      );
    } catch {
      /* the thread just ended */
    }
  }
  return pids;
}
