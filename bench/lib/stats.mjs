// Latency histograms (HdrHistogram, microsecond resolution) and run aggregation (median, min–max).
import hdr from 'hdr-histogram-js';

const build = () =>
  hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 600_000_000,
    numberOfSignificantValueDigits: 3,
  });

const summarise = (h) =>
  h.totalCount === 0
    ? { count: 0 }
    : {
        count: h.totalCount,
        p50: h.getValueAtPercentile(50) / 1000,
        p95: h.getValueAtPercentile(95) / 1000,
        p99: h.getValueAtPercentile(99) / 1000,
        max: h.maxValue / 1000,
        mean: h.mean / 1000,
      };

/** One histogram per label; values recorded in ms, kept in µs. */
export class Histograms {
  constructor() {
    this.byLabel = new Map();
    this.all = build();
  }

  record(label, ms) {
    let h = this.byLabel.get(label);
    if (!h) this.byLabel.set(label, (h = build()));
    const us = Math.max(1, Math.round(ms * 1000));
    h.recordValue(us);
    this.all.recordValue(us);
  }

  summary() {
    const out = {};
    for (const [label, h] of this.byLabel) out[label] = summarise(h);
    return out;
  }

  summaryAll() {
    return summarise(this.all);
  }
}

export function median(values) {
  const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** { median, min, max, n } of the numbers found at `pick(run)` over the runs. */
export function spread(runs, pick) {
  const values = runs.map((r) => {
    try {
      return pick(r);
    } catch {
      return undefined;
    }
  });
  const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x));
  if (v.length === 0) return null;
  return { median: median(v), min: Math.min(...v), max: Math.max(...v), n: v.length };
}

/** Ratio of two spreads' medians, and the range of per-run ratios (runs paired by index). */
export function ratio(runsA, runsB, pickA, pickB = pickA) {
  const per = [];
  for (let i = 0; i < Math.min(runsA.length, runsB.length); i++) {
    try {
      const a = pickA(runsA[i]);
      const b = pickB(runsB[i]);
      if (Number.isFinite(a) && Number.isFinite(b) && b !== 0) per.push(a / b);
    } catch {
      /* skip */
    }
  }
  if (per.length === 0) return null;
  return { median: median(per), min: Math.min(...per), max: Math.max(...per), n: per.length };
}
