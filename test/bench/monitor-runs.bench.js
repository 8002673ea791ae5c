'use strict';
// What a runner's reported run costs the API without HTTP: the built API in this process on a temp data directory,
// BENCH_MONITORS (2,000) URL monitors on a runner location, then BENCH_ROUNDS (3) rounds of reports as the results
// route makes them (runner key, then RunnerLeases.report: the monitor's command per run, group commit, inline
// projections, fsync), BENCH_BATCH (167) runs a report, a round of every monitor's run each, after a warm-up round.
// Prints runs/s and this process's CPU per run (user, system); BENCH_PROFILE=<file> writes a CPU profile of the rounds.
// Run: npm run build && node test/bench/monitor-runs.bench.js
const { join } = require('node:path');
const { writeFileSync } = require('node:fs');
const { Session } = require('node:inspector');
const { BENCH_KEY, cpuRounds, startInProcessApi, ROOT } = require('./lib');

const MONITORS = Number(process.env.BENCH_MONITORS ?? 2000);
const BATCH = Number(process.env.BENCH_BATCH ?? 167);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const headers = { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' };

async function post(url, path, body) {
  const response = await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body) });
  return response.status < 300 ? response.json() : Promise.reject(new Error(`${path}: ${response.status} ${await response.text()}`));
}

/** Starts this process's CPU profiler; the returned function stops it and answers the profile. */
async function startProfile() {
  const session = new Session();
  session.connect();
  const call = (method) => new Promise((resolve, reject) => session.post(method, (error, answer) => (error ? reject(error) : resolve(answer))));
  await call('Profiler.enable');
  await call('Profiler.start');
  return async () => (await call('Profiler.stop')).profile;
}

async function main() {
  const { RunnerLeases } = require(join(ROOT, 'dist/libs/monitors/src/write/runner-leases'));
  const { app, url, close } = await startInProcessApi('monitor-runs');
  try {
    const { runnerKey } = await post(url, '/v1/runner-keys', { location: 'bench', allowPrivateTargets: true });
    const ids = [];
    for (let i = 0; i < MONITORS; i += 20) {
      const batch = Array.from({ length: Math.min(20, MONITORS - i) }, (_, j) => post(url, '/v1/checks/url', { name: `bench ${i + j}`, frequency: 1, locations: ['bench'], request: { url: 'http://127.0.0.1:9/' } }));
      for (const m of await Promise.all(batch)) ids.push(m.id);
    }
    const leases = app.get(RunnerLeases);
    const key = await leases.authenticate(runnerKey);
    const base = Math.floor(Date.now() / 60_000) * 60_000;
    let round = 0;
    // One round: every monitor's final run, reported BATCH at a time, one report after the other (as one runner does).
    const report = async () => {
      const roundAt = new Date(base + 60_000 * round++).toISOString();
      for (let i = 0; i < ids.length; i += BATCH) {
        const runs = ids.slice(i, i + BATCH).map((monitorId, j) => ({ monitorId, roundAt, startedAt: roundAt, outcome: 'PASS', timings: { total: 20 + (j % 50), dns: 1, connect: 1, tls: 0, firstByte: 10 }, error: null, networkError: false, attempt: 1, final: true }));
        const { accepted, rejected } = await leases.report(key, runs);
        if (accepted !== runs.length) throw new Error(`rejected: ${JSON.stringify(rejected.slice(0, 3))}`);
      }
    };
    await report();
    const profile = process.env.BENCH_PROFILE ? await startProfile() : null;
    await cpuRounds('run', ids.length, ROUNDS, report);
    if (profile) writeFileSync(process.env.BENCH_PROFILE, JSON.stringify(await profile()));
  } finally {
    await close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
