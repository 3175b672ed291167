// S10: attachments (issue 26, DESIGN §18) against the real app on its default disk storage (a
// folder under DATA_DIR, here a fresh temporary one). Files are made up on the fly by the load
// generator (lib/uploads.mjs) and sent with tus as the app's client sends them.
//   1. A 100 MB upload's throughput (POST, then the whole file in one PATCH as tus-js-client does
//      by default, until the file is stored and ready) against writing the same bytes to a file on
//      the same disk with a plain fs stream (baselines/disk-write.mjs, on the app's core), in the
//      same rounds, order rotating. Both are timed to the bytes being on disk: the stored file is
//      fsynced after the upload's last answer (the server flushes it before it answers, so this
//      finds little left), the baseline's file after its last write. The figures without the
//      fsync after are reported beside, and bare
//      node:http taking the same bytes into a file in one PUT (baselines/upload-http.mjs): what
//      HTTP itself costs, apart from what the app adds.
//   2. The server's RSS (/proc/<pid>/status VmRSS, every 50 ms) during a 1 GB upload, over its RSS
//      after a forced GC just before: streamed, it stays flat; buffered, it grows with the file.
//   3. 30 students of one course each upload a 5 MB photo (a JPEG) at the same moment: each must be
//      stored (its row ready as image/jpeg with every byte, the file on disk), and the p95 of the
//      times to completion is reported.
// Quick form (CI): 20 MB, 100 MB and 10 students × 1 MB, one round; labels name the sizes measured.
import { closeSync, fsyncSync, openSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { seedAssignments, seedCourses, seedMembers, seedUsers } from '../lib/db.mjs';
import { APP_CORE, BENCH, cleanupStack, cpuMeter, rssBytes, startNode } from '../lib/procs.mjs';
import { probe, startBaseline, tempDir } from '../lib/servers.mjs';
import { appOnPostgres, target } from '../lib/scenario.mjs';
import { Histograms, ratio, spread } from '../lib/stats.mjs';
import { MB } from '../lib/uploads.mjs';

const FULL = {
  throughput: 100 * MB,
  big: 1024 * MB,
  bigRounds: 3,
  students: 30,
  photo: 5 * MB,
  photoRounds: 3,
};
const QUICK = {
  throughput: 20 * MB,
  big: 100 * MB,
  bigRounds: 1,
  students: 10,
  photo: 1 * MB,
  photoRounds: 1,
};
/** The client and loopback alone: the same bytes sent the same way to a server that reads and drops them. */
const SINK = 'loopback sink';
/** The other PATCH size measured beside one whole-file PATCH: tus clients' usual chunk. */
const CHUNK = 8 * MB;

const sizeLabel = (bytes) => (bytes >= 1024 * MB ? `${bytes / 1024 / MB} GB` : `${bytes / MB} MB`);

export async function runS10uploads({ loadgen, quick, runs, log, dbName }) {
  const shape = quick ? QUICK : FULL;
  const cleanups = cleanupStack();
  try {
    const data = tempDir('classwave-s10-');
    cleanups.add(data.cleanup);
    const { app, q } = await appOnPostgres(cleanups, dbName, {
      env: {
        DATA_DIR: data.dir,
        // Above the 1 GB file, and a quota the runs cannot reach (each file is removed after its run).
        UPLOAD_MAX_BYTES: String(2 * 1024 * MB),
        UPLOAD_QUOTA_BYTES: String(64 * 1024 * MB),
      },
    });
    const storedFile = (id) => path.join(data.dir, 'files', id);
    const [teacher] = await seedUsers(q, 'teacher', 1, 'S10 Teacher');
    const [course] = await seedCourses(q, [teacher]);
    const [runner] = await seedUsers(q, 'student', 1, 'S10 Runner');
    const students = await seedUsers(q, 'student', shape.students, 'S10 Student');
    await seedMembers(
      q,
      [runner, ...students].map((s) => [s.id, course.id]),
    );
    const [largeWork, photoWork] = await seedAssignments(q, [course], 2);

    const broken = [];
    const upload = (student, work, name, size, options = {}) => ({
      token: student.token,
      meta: { purpose: 'submission', targetId: work.id, name },
      size,
      ...options,
    });
    /** Sends uploads at once; the results, each checked stored with every byte (else broken). */
    const send = async (what, uploads, mime) => {
      const results = await loadgen.call('uploads', { origin: app.url, uploads });
      const ids = results.filter((r) => r.id).map((r) => r.id);
      const rows = await q('select id, status, stored_size, mime from files where id = any($1)', [ids]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      results.forEach((r, i) => {
        const row = byId.get(r.id);
        const size = uploads[i].size;
        let onDisk = -1;
        try {
          onDisk = statSync(storedFile(r.id)).size;
        } catch {
          /* not stored */
        }
        r.stored =
          r.status === 204 &&
          row?.status === 'ready' &&
          Number(row.stored_size) === size &&
          onDisk === size &&
          (!mime || row.mime === mime);
        if (!r.stored)
          broken.push(
            `S10uploads: ${what} not stored: ${r.status} ${r.error ?? ''} row ${JSON.stringify(row ?? null)}, ${onDisk} bytes on disk`,
          );
        r.token = uploads[i].token; // for its removal
      });
      return results;
    };
    /** Removes stored files through the app (their uploader, before handing in), so the disk does not fill. */
    const remove = async (results) => {
      for (const r of results)
        if (r.id)
          await loadgen.call('fetch', {
            url: `${app.url}/api/files/${r.id}`,
            method: 'DELETE',
            headers: { authorization: `Bearer ${r.token}` },
          });
    };
    const sendAndRemove = async (what, uploads, mime) => {
      const results = await send(what, uploads, mime);
      await remove(results);
      return results;
    };
    const fsyncMs = (file) => {
      const t0 = performance.now();
      const fd = openSync(file, 'r+');
      fsyncSync(fd);
      closeSync(fd);
      return performance.now() - t0;
    };

    // Warm-up: the upload path's code loaded and the pool open, with both PATCH forms and a photo.
    log('  warm-up');
    await sendAndRemove('warm-up', [
      upload(runner, largeWork, 'warm-up.bin', 8 * MB),
      upload(runner, largeWork, 'warm-up-chunks.bin', 8 * MB, { chunkSize: 2 * MB }),
      upload(runner, photoWork, 'warm-up.jpg', shape.photo, { jpeg: true }),
    ]);

    // 2. RSS during large uploads (first, before the throughput rounds' files have passed through),
    // each from a forced GC: the strictest baseline, V8's young generation shrunk to its least.
    const rssRuns = [];
    for (let round = 0; round < Math.min(runs, shape.bigRounds); round++) {
      const before = await probe(app, 'mem');
      const rss0 = rssBytes(app.pid);
      const samples = [];
      const sampler = setInterval(() => samples.push(rssBytes(app.pid)), 50);
      const meter = cpuMeter({ app: app.pid });
      const [big] = await send('large upload', [upload(runner, largeWork, 'recording.bin', shape.big)]);
      const cpuSeconds = meter.end().procs.app;
      clearInterval(sampler);
      samples.push(rssBytes(app.pid));
      const after = await probe(app, 'mem');
      await remove([big]);
      const peak = Math.max(...samples);
      rssRuns.push({
        baseline: rss0,
        peak,
        growth: peak - rss0,
        // Held bytes would make the second half grow as much as the first; streamed, it stays flat.
        growthByHalf: Math.max(...samples.slice(0, Math.ceil(samples.length / 2))) - rss0,
        afterGc: after.rss,
        heapBefore: before.heapUsed,
        heapAfter: after.heapUsed,
        samples: samples.length,
        ms: big.ms,
        cpuSeconds,
      });
      log(
        `  ${sizeLabel(shape.big)} upload ${round + 1}: RSS ${(rss0 / MB).toFixed(0)} → peak ${(peak / MB).toFixed(0)} MB (+${((peak - rss0) / MB).toFixed(1)}), ${(shape.big / MB / (big.ms / 1000)).toFixed(0)} MB/s`,
      );
    }
    const inMb = (pick) => spread(rssRuns, (r) => pick(r) / MB);

    // 1. Throughput: the app (one PATCH; 8 MB PATCHes), bare node:http and the disk, interleaved.
    const bare = await startBaseline('upload-http');
    cleanups.add(() => bare.stop());
    /** The app storing the file from one upload, timed to its last answer, then its stored file fsynced. */
    const appRun = async (name, options) => {
      const meter = cpuMeter({ app: app.pid });
      const [r] = await send(name, [upload(runner, largeWork, name, shape.throughput, options)]);
      const cpu = meter.end().procs.app;
      const sync = r.stored ? fsyncMs(storedFile(r.id)) : null;
      await remove([r]);
      return { ms: r.ms, fsyncMs: sync, cpu };
    };
    const variants = {
      app: () => appRun('throughput.bin'),
      [`app, ${sizeLabel(CHUNK)} PATCHes`]: () => appRun('chunks.bin', { chunkSize: CHUNK }),
      'bare node:http': async () => {
        const file = path.join(data.dir, 'bare-http.bin');
        const meter = cpuMeter({ bare: bare.pid });
        const r = await loadgen.call('putFile', {
          url: `${bare.url}/upload?to=${encodeURIComponent(file)}`,
          size: shape.throughput,
        });
        const cpu = meter.end().procs.bare;
        const sync = r.status === 204 ? fsyncMs(file) : null;
        rmSync(file, { force: true });
        if (r.status !== 204) broken.push(`S10uploads: bare node:http answered ${r.status} ${r.error ?? ''}`);
        return { ms: r.status === 204 ? r.ms : null, fsyncMs: sync, cpu };
      },
      // The same client and bytes over loopback into a server that drops them: no disk, no app.
      [SINK]: async () => {
        const meter = cpuMeter({ bare: bare.pid });
        const r = await loadgen.call('putFile', { url: `${bare.url}/sink`, size: shape.throughput });
        const cpu = meter.end().procs.bare;
        if (r.status !== 204)
          broken.push(`S10uploads: the loopback sink answered ${r.status} ${r.error ?? ''}`);
        return { ms: r.status === 204 ? r.ms : null, fsyncMs: 0, cpu };
      },
      disk: async () => {
        const file = path.join(data.dir, 'disk-write.bin');
        const child = startNode('disk-write', APP_CORE, [
          path.join(BENCH, 'baselines/disk-write.mjs'),
          file,
          shape.throughput,
        ]);
        const { code } = await child.exited;
        rmSync(file, { force: true });
        if (code !== 0) throw new Error(`S10: the disk write failed:\n${child.output()}`);
        const { writeMs, fsyncMs } = JSON.parse(child.output().trim().split('\n').pop());
        return { ms: writeMs, fsyncMs };
      },
    };
    const names = Object.keys(variants);
    const results = Object.fromEntries(names.map((n) => [n, []]));
    // A warm-up round first, but in quick form (the warm-up uploads above have loaded the code).
    for (let round = quick ? 0 : -1; round < runs; round++) {
      const order = names.map((_, i) => names[(i + Math.max(round, 0)) % names.length]);
      for (const name of order) {
        const r = await variants[name]();
        if (round >= 0) results[name].push(r);
      }
      if (round >= 0) log(`  throughput run ${round + 1}`);
    }
    const mbps = (r) => shape.throughput / MB / (r.ms / 1000);
    const mbpsSynced = (r) => shape.throughput / MB / ((r.ms + r.fsyncMs) / 1000);

    // 3. A class uploading photos at once.
    const photoRuns = [];
    for (let round = 0; round < Math.min(runs, shape.photoRounds); round++) {
      const uploads = students.map((s, i) =>
        upload(s, photoWork, `photo-${i + 1}.jpg`, shape.photo, { jpeg: true }),
      );
      const meter = cpuMeter({ app: app.pid });
      const rs = await sendAndRemove('photo', uploads, 'image/jpeg');
      const cpu = meter.end().procs.app;
      const h = new Histograms();
      for (const r of rs) if (r.stored) h.record('photo', r.ms);
      photoRuns.push({ ...h.summaryAll(), stored: rs.filter((r) => r.stored).length, cpu });
      log(
        `  photos run ${round + 1}: ${photoRuns.at(-1).stored}/${students.length} stored, p95 ${photoRuns.at(-1).p95?.toFixed(0)} ms`,
      );
    }
    const allStored = photoRuns.every((r) => r.stored === students.length);

    const big_ = sizeLabel(shape.big);
    const tp = sizeLabel(shape.throughput);
    const photos = `${students.length} students × ${sizeLabel(shape.photo)} photos at once`;
    const quickNote = quick ? ' (quick form)' : '';
    const exact = (t) => ({ ...t, exact: true });
    const lines = [];
    for (const name of names) {
      if (name === SINK) {
        lines.push({
          metric: `${SINK}: ${tp} sent over loopback and dropped (nothing written)`,
          value: spread(results[name], mbps),
          unit: 'MB/s',
        });
        continue;
      }
      // The app answers once the file is flushed: its time to the answer has its own fsync in it.
      const app = name.startsWith('app');
      lines.push({
        metric: app
          ? `${name}: ${tp} to the answer (the server's flush in it)`
          : `${name}: ${tp} written, no fsync`,
        value: spread(results[name], mbps),
        unit: 'MB/s',
      });
      lines.push({
        metric: app ? `${name}: ${tp} to the answer, then fsynced` : `${name}: ${tp} written and fsynced`,
        value: spread(results[name], mbpsSynced),
        unit: 'MB/s',
      });
      lines.push({
        metric: `${name}: the fsync after the ${app ? 'answer' : 'last write'} (what was left to flush)`,
        value: spread(results[name], (r) => r.fsyncMs),
        unit: 'ms',
      });
    }
    lines.push(
      {
        metric: `app to the answer ÷ disk written, no fsync after either (the app's own flush counted)`,
        value: ratio(results.app, results.disk, mbps),
        unit: '',
      },
      {
        metric: `${SINK} ÷ disk, fsynced (the client and loopback alone, nothing written)`,
        value: ratio(results[SINK], results.disk, mbpsSynced),
        unit: '',
      },
      {
        metric: `app ÷ ${SINK} (what storing the file costs over receiving it)`,
        value: ratio(results.app, results[SINK], mbps),
        unit: '',
      },
      ...names
        .filter((name) => name !== 'app' && name !== 'disk' && name !== SINK)
        .map((name) => ({
          metric: `${name} ÷ disk, both fsynced`,
          value: ratio(results[name], results.disk, mbpsSynced),
          unit: '',
        })),
      {
        metric: 'app ÷ bare node:http, both fsynced (what the app adds to HTTP)',
        value: ratio(results.app, results['bare node:http'], mbpsSynced),
        unit: '',
      },
      ...['app', 'bare node:http'].map((name) => ({
        metric: `${name}: server CPU per ${tp} (one request)`,
        value: spread(results[name], (r) => r.cpu * 1000),
        unit: 'ms',
      })),
      {
        metric: `${big_} upload: RSS before (after a forced GC)`,
        value: inMb((r) => r.baseline),
        unit: 'MB',
      },
      { metric: `${big_} upload: RSS peak (sampled every 50 ms)`, value: inMb((r) => r.peak), unit: 'MB' },
      { metric: `${big_} upload: RSS growth by half-way`, value: inMb((r) => r.growthByHalf), unit: 'MB' },
      { metric: `${big_} upload: RSS growth by the end`, value: inMb((r) => r.growth), unit: 'MB' },
      { metric: `${big_} upload: RSS after, forced GC`, value: inMb((r) => r.afterGc), unit: 'MB' },
      { metric: `${big_} upload: heap used before, forced GC`, value: inMb((r) => r.heapBefore), unit: 'MB' },
      { metric: `${big_} upload: heap used after, forced GC`, value: inMb((r) => r.heapAfter), unit: 'MB' },
      {
        metric: `${big_} upload: throughput (one PATCH, no fsync)`,
        value: spread(rssRuns, (r) => shape.big / MB / (r.ms / 1000)),
        unit: 'MB/s',
      },
      { metric: `${big_} upload: app CPU`, value: spread(rssRuns, (r) => r.cpuSeconds), unit: 's' },
      {
        metric: `${photos}: stored`,
        value: `${photoRuns.map((r) => r.stored).join(', ')} of ${students.length}`,
        unit: 'per run',
      },
      ...['p50', 'p95', 'max'].map((p) => ({
        metric: `${photos}: completion ${p}`,
        value: spread(photoRuns, (r) => r[p]),
        unit: 'ms',
      })),
      {
        metric: `${photos}: app CPU per photo`,
        value: spread(photoRuns, (r) => (r.cpu * 1000) / students.length),
        unit: 'ms',
      },
    );
    return {
      title: `tus uploads to the disk storage: ${tp} against a plain disk write, RSS during ${big_}, ${photos}${quickNote}`,
      lines,
      notes: [
        `Throughput: POST to the last PATCH's answer, which comes once the file is sniffed, flushed to the disk (fsync; the server flushes a staged upload every 2 MB while the rest arrives, then the rest and the folder's names before it answers), moved from tus's staging folder into the storage folder (a hard link) and its row made ready; then the stored file is fsynced again by the bench (the line "the fsync after the answer" says how little was left). The disk write is an fs write stream of the same bytes on the same disk, then fsync; bare node:http is a plain PUT of them into a file (baselines/upload-http.mjs), then fsync. The target's ratio counts both fsyncs; the lines without the fsync after are beside (for the app, its own flush is in them).`,
        `Measured the same way on both sides of the target's ratio: the same generated bytes, both timed to the last byte written and then fsynced (the figures without that fsync beside), both on the app's core. The upload also crosses loopback TCP from the load generator, which the disk write does not: the loopback sink (the same client and bytes into a server that reads and drops them) measures that part alone, and bare node:http (the same client into a file) what a Node server without framework, tus or database reaches here. The upload is sent as the app's client sends it, in one PATCH (tus-js-client's default chunk size); 8 MB PATCHes are measured beside.`,
        `RSS: the server's VmRSS sampled every 50 ms during a ${big_} upload (one PATCH; ${rssRuns.length} of them), peak minus the reading after a forced GC just before it.`,
      ],
      targets: [
        exact(
          target(
            `S10 uploads: ${tp} upload throughput ÷ disk write throughput${quickNote}`,
            ratio(results.app, results.disk, mbpsSynced),
            0.5,
            '≥',
          ),
        ),
        exact(
          target(
            `S10 uploads: server RSS growth during a ${big_} upload (MB)${quickNote}`,
            inMb((r) => r.growth),
            50,
            '≤',
          ),
        ),
        {
          ...exact(
            target(
              `S10 uploads: ${photos}, p95 completion (ms)${quickNote}`,
              spread(photoRuns, (r) => r.p95),
              0,
              '≥',
            ),
          ),
          op: '',
          limit: 'all stored',
          met: allStored,
        },
      ],
      broken,
      raw: { shape, rss: rssRuns, throughput: results, photos: photoRuns },
    };
  } finally {
    await cleanups.run();
  }
}
