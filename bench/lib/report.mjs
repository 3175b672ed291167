// The machine's state around a run, and the markdown report: one short table of targets, then one
// table of measures per scenario (medians over the runs, with min–max).
import { execSync } from 'node:child_process';
import os from 'node:os';
import { ROOT } from './procs.mjs';

export function machineContext() {
  let busiest = [];
  try {
    busiest = execSync('ps -eo pcpu,comm --sort=-pcpu --no-headers', { encoding: 'utf8' })
      .trim()
      .split('\n')
      .slice(0, 6)
      .map((l) => l.trim().replace(/\s+/, '% '));
  } catch {
    /* ps missing */
  }
  let commit = null;
  try {
    commit = execSync('git rev-parse --short HEAD', {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    /* not a repository */
  }
  return {
    node: process.version,
    cpus: os.cpus().map((c) => c.model)[0],
    cores: os.cpus().length,
    memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    loadavg: os.loadavg().map((x) => +x.toFixed(2)),
    busiest,
    commit,
  };
}

const num = (v, digits = 3) => {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  if (typeof v !== 'number') return String(v);
  const a = Math.abs(v);
  if (a >= 1000) return v.toFixed(0);
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  return v.toPrecision(digits);
};

const cell = (s) => (s && typeof s === 'object' ? num(s.median) : num(s));
const range = (s) =>
  s && typeof s === 'object' && s.min !== undefined
    ? `${num(s.min)}–${num(s.max)}${s.n ? ` (${s.n})` : ''}`
    : '';

export function markdownReport(report) {
  const lines = [];
  const when = report.startedAt.slice(0, 16).replace('T', ' ');
  lines.push(`### Benchmark (${report.mode}, ${when} UTC, ${report.seconds.toFixed(0)} s)`);
  lines.push('');
  lines.push(
    `Command: \`${report.command}\` — ${report.context.cores} cores (${report.context.cpus}), Node ${report.context.node}; app and baselines pinned to core 0, load to core 1; medians of ${report.runs} interleaved runs (min–max). Load average at start ${report.context.loadavg.join(' ')}.`,
  );
  for (const m of report.merges ?? [])
    lines.push(
      '',
      `${m.scenarios.join(', ')}: measured again by \`${m.command}\` at ${m.startedAt.slice(0, 16).replace('T', ' ')} UTC (${m.seconds.toFixed(0)} s, Node ${m.node}, commit ${m.commit ?? '?'}, ${m.runs} runs); load average ${m.loadavg.join(' ')} at its start, ${m.loadavgAfter.join(' ')} at its end. Its rows replace that run's.`,
    );
  lines.push('');
  lines.push('| # | target | median | min–max (runs) | limit | met |');
  lines.push('| --- | --- | ---: | ---: | ---: | :---: |');
  for (const [id, result] of Object.entries(report.results)) {
    if (result.error) {
      lines.push(`| ${id} | failed: ${result.error.split('\n')[0].slice(0, 120)} | | | | ✗ |`);
      continue;
    }
    for (const t of result.targets ?? []) {
      const met = t.met === null ? '—' : t.met ? '✓' : '✗';
      const r = t.range ? `${num(t.range[0])}–${num(t.range[1])}${t.n ? ` (${t.n})` : ''}` : '';
      lines.push(
        // An `exact` name is printed whole: scripts read those rows by their label (issue 30).
        `| ${id} | ${t.exact ? t.name : t.name.replace(/^S\d /, '')} | ${num(t.value)} | ${r} | ${t.op} ${num(t.limit)} | ${met} |`,
      );
    }
  }
  lines.push('');
  if (report.broken.length) {
    lines.push(`**Broken:** ${report.broken.join('; ')}`);
    lines.push('');
  }
  for (const [id, result] of Object.entries(report.results)) {
    if (result.error || !result.lines?.length) continue;
    lines.push(`<details><summary>${id}: ${result.title ?? ''}</summary>`);
    lines.push('');
    lines.push('| measure | median | min–max (runs) | unit |');
    lines.push('| --- | ---: | ---: | --- |');
    for (const l of result.lines)
      lines.push(`| ${l.metric} | ${cell(l.value)} | ${range(l.value)} | ${l.unit ?? ''} |`);
    if (result.notes?.length) {
      lines.push('');
      for (const n of result.notes) lines.push(`- ${n}`);
    }
    lines.push('');
    lines.push('</details>');
    lines.push('');
  }
  return lines.join('\n');
}

/** The repository's Prettier style (npm run format:check covers bench/results too); as is without Prettier. */
export async function formatted(text, filepath) {
  try {
    const prettier = await import('prettier');
    const options = (await prettier.resolveConfig(filepath)) ?? {};
    return await prettier.format(text, { ...options, filepath });
  } catch {
    return text;
  }
}
