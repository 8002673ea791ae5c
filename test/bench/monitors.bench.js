'use strict';
// Uptime monitors on a runner: BENCH_MONITORS (10,000) URL monitors at 60 s against a local target, leased by one
// runner process on this machine. Reports the share of runs started within 1 s of their round, lost rounds, the
// runner's and the API's RSS, bytes on disk per stored run (vigil.db after a clean stop, before and after the
// runner worked, ÷ runs stored: the log's pages, and the whole file with read models), and ping intake (20
// connections, closed loop, 10 s) alone and beside the runner, with the runner's CPU per probe (/proc/<pid>/stat)
// meanwhile, and alone again 30 s after the runner was killed (how far the machine's load drifted meanwhile).
// Run: npm run build && node test/bench/monitors.bench.js   (BENCH_MONITORS=10000, BENCH_WARMUP=90, BENCH_SECONDS=300,
// BENCH_RUNNER_BUILD=<a dist> for another build's runner)
const http = require('node:http');
const { spawn } = require('node:child_process');
const { statSync, existsSync, mkdtempSync, rmSync, readFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { createChecks, startProcess, load, machine, rssMiB, freePort, ROOT, START_FLAGS } = require('./lib');

const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 90);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 300);
/** The build the runner comes from (another checkout's dist, to compare runners against the same API). */
const RUNNER_BUILD = resolve(process.env.BENCH_RUNNER_BUILD ?? join(ROOT, 'dist'));
const KEY = 'bench-key-0123456789abcdef';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const sleep = (s) => new Promise((r) => setTimeout(r, s * 1000));
const TICK_US = 1e6 / Number(require('node:child_process').execFileSync('getconf', ['CLK_TCK']).toString().trim());
/** A process's user + system CPU so far, µs. */
const cpuUs = (pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ').slice(11, 13).reduce((n, t) => n + Number(t) * TICK_US, 0);
const dbBytes = (dir) => ['vigil.db', 'vigil.db-wal'].map((f) => join(dir, f)).filter(existsSync).reduce((n, f) => n + statSync(f).size, 0);
/** A stopped server's file: its size, the event log's pages (table and index), and the events of monitor streams. */
function measure(dir) {
  const db = new (require('better-sqlite3'))(join(dir, 'vigil.db'), { readonly: true });
  const log = db.prepare("SELECT sum(pgsize) FROM dbstat WHERE name IN ('events', 'events_by_stream')").pluck().get();
  const runs = db.prepare("SELECT count(*) FROM events WHERE stream IN (SELECT id FROM streams WHERE name LIKE 'monitor-%')").pluck().get();
  return db.close(), { file: dbBytes(dir), log, runs };
}

const LIMITS = { VIGIL_RATE_LIMIT_PER_MINUTE: '1000000000', VIGIL_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000000', VIGIL_CONNECTIONS_PER_ADDRESS: '1000000' };
// One port across restarts, so a runner keeps its API's address.
const startApi = (dataDir, port) => startProcess(join(ROOT, 'dist', 'apps', 'api', 'src', 'main.js'), { VIGIL_DATA_DIR: dataDir, VIGIL_BOOTSTRAP_API_KEY: KEY, PORT: String(port), ...LIMITS }, '/healthz', START_FLAGS);
function startRunner(apiUrl, runnerKey) {
  return spawn(process.execPath, [join(RUNNER_BUILD, 'apps', 'runner', 'src', 'main.js')], {
    env: { ...process.env, VIGIL_API_URL: apiUrl, VIGIL_RUNNER_KEY: runnerKey, VIGIL_RUNNER_LOCATION: 'bench', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function post(url, path, body) {
  const response = await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body) });
  return response.status < 300 ? response.json() : Promise.reject(new Error(`${path}: ${response.status} ${await response.text()}`));
}

/** Pings round-robin over the tokens from 20 connections for 10 s (after 2 s of warm-up): requests/s. */
async function pingIntake(url, tokens) {
  let i = 0;
  const requests = [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/ping/${tokens[i++ % tokens.length]}` }) }];
  await load({ url, connections: 20, duration: 2, requests });
  return (await load({ url, connections: 20, duration: 10, requests })).requestsPerSec;
}

async function results(url, id) {
  const entries = [];
  let nextId = null;
  do {
    const page = await (await fetch(`${url}/v2/check-results/${id}?limit=100${nextId ? `&nextId=${nextId}` : ''}`, { headers })).json();
    entries.push(...page.entries);
    nextId = page.nextId;
  } while (nextId);
  return entries;
}

async function main() {
  let hits = 0;
  const target = http.createServer((_req, res) => (hits++, res.end('ok')));
  await new Promise((r) => target.listen(0, '127.0.0.1', r));
  const targetUrl = `http://127.0.0.1:${target.address().port}/`;
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  const port = await freePort();
  let api = await startApi(dataDir, port);
  let runner = null;
  try {
    const { runnerKey } = await post(api.url, '/v1/runner-keys', { location: 'bench', allowPrivateTargets: true });
    const tokens = await createChecks(api.url, 100, headers);
    const ids = [];
    const createdAt = Date.now();
    for (let i = 0; i < MONITORS; i += 20) {
      const batch = Array.from({ length: Math.min(20, MONITORS - i) }, (_, j) => post(api.url, '/v1/checks/url', { name: `bench ${i + j}`, frequency: 1, locations: ['bench'], request: { url: targetUrl } }));
      for (const m of await Promise.all(batch)) ids.push(m.id);
    }
    const createSeconds = (Date.now() - createdAt) / 1000;
    const child = (runner = startRunner(api.url, runnerKey));
    const rss = { runner: 0, api: 0 };
    const sample = () => [(rss.runner = Math.max(rss.runner, child.exitCode === null ? rssMiB(child.pid) : 0)), (rss.api = Math.max(rss.api, api.rssMiB()))];
    const sampler = setInterval(() => { try { sample(); } catch { /* the API restarting */ } }, 1000);
    await sleep(WARMUP);
    // Clean stops measure the file after every monitor's first rounds and after the window (no pings yet); the
    // runner waits out the restart, and the window starts once it has caught up.
    await api.stop();
    const before = measure(dataDir);
    api = await startApi(dataDir, port);
    await sleep(20);
    const windowStart = Date.now();
    await sleep(SECONDS);
    const windowEnd = Date.now();
    await sleep(5); // the last rounds' reports
    clearInterval(sampler);
    if (child.exitCode !== null) throw new Error('the runner exited');
    child.kill('SIGTERM');

    let [inWindow, onTime, lost] = [0, 0, 0];
    const lags = [];
    for (let i = 0; i < ids.length; i += 20) {
      for (const entries of await Promise.all(ids.slice(i, i + 20).map((id) => results(api.url, id)))) {
        const finals = entries.filter((e) => e.resultType === 'FINAL').sort((a, b) => a.checkRunId - b.checkRunId);
        for (const e of finals) {
          if (e.checkRunId < windowStart || e.checkRunId >= windowEnd) continue;
          inWindow++;
          const lag = Date.parse(e.startedAt) - e.checkRunId;
          lags.push(lag);
          if (lag <= 1000) onTime++;
        }
        // Rounds follow one another by 60 s: a larger gap touching the window is a lost round, as is a silent end.
        for (let k = 1; k < finals.length; k++) {
          if (finals[k].checkRunId >= windowStart && finals[k - 1].checkRunId < windowEnd) lost += Math.max(0, Math.round((finals[k].checkRunId - finals[k - 1].checkRunId) / 60_000) - 1);
        }
        const last = finals[finals.length - 1];
        if (!last) lost += Math.floor(SECONDS / 60);
        else if (windowEnd - last.checkRunId > 61_000) lost += Math.floor((windowEnd - last.checkRunId) / 60_000);
      }
    }
    await api.stop();
    const after = measure(dataDir);
    const stored = after.runs - before.runs;
    const perRun = { file: (after.file - before.file) / stored, log: (after.log - before.log) / stored };
    api = await startApi(dataDir, port);
    const pingAlone = await pingIntake(api.url, tokens);
    runner = startRunner(api.url, runnerKey);
    await sleep(30);
    const [cpu0, hits0] = [cpuUs(runner.pid), hits];
    const pingBeside = await pingIntake(api.url, tokens);
    const runnerUsPerProbe = (cpuUs(runner.pid) - cpu0) / (hits - hits0);
    // Killed rather than stopped: a stopping runner still flushes its queue to the API.
    const stopped = runner;
    await new Promise((r) => (stopped.once('exit', r), stopped.kill('SIGKILL')));
    // The API's work on a location whose runner left (presence lapse, alerts) is not the intake's figure.
    await sleep(30);
    const pingAfter = await pingIntake(api.url, tokens);
    lags.sort((a, b) => a - b);
    const p = (q) => lags[Math.min(lags.length - 1, Math.ceil((q / 100) * lags.length) - 1)];
    console.log(`machine: ${machine()}`);
    console.log(`${MONITORS} URL monitors at 60 s on one runner, created in ${createSeconds.toFixed(0)} s; ${WARMUP} s warm-up, ${SECONDS} s measured; target saw ${hits} requests`);
    console.log(`rounds in the window: ${inWindow} (${(inWindow / (SECONDS / 60)).toFixed(0)} per minute); started within 1 s: ${((onTime / inWindow) * 100).toFixed(3)}%; start lag p50 ${p(50)} ms, p99 ${p(99)} ms, max ${lags[lags.length - 1]} ms; lost rounds: ${lost}`);
    console.log(`RSS max: runner ${rss.runner} MiB, API ${rss.api} MiB; ${stored} runs stored; per run on disk: ${Math.round(perRun.log)} bytes of log, ${Math.round(perRun.file)} bytes of file`);
    console.log(`ping intake (20 connections): ${pingAlone}/s alone, ${pingBeside}/s beside the runner (${((pingBeside / pingAlone) * 100).toFixed(1)}%; the runner meanwhile ${runnerUsPerProbe.toFixed(0)} µs CPU per probe); ${pingAfter}/s alone again 30 s after the runner`);
  } finally {
    if (runner && runner.exitCode === null) runner.kill('SIGKILL');
    if (api) await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
    target.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
