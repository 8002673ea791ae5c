'use strict';
// The runner's CPU per probe: BENCH_MONITORS (1,670) URL monitors every BENCH_EVERY (10) s against a local target
// (~167 probes/s, the rate of 10,000 monitors at 60 s), leased by one runner process; the runner's user + system
// CPU time (/proc/<pid>/stat) over BENCH_SECONDS (60) after BENCH_WARMUP (25) s, ÷ the target's requests in the
// window. BENCH_BUILDS (default: this checkout's dist) lists build roots to compare, each measured BENCH_REPEAT (1)
// times in turn against the same API; BENCH_PROF=<dir> writes each runner's --cpu-prof there. CPU time rather than
// a rate, so other work on the machine moves the figure little. Also the API's CPU per probe (leases and reports).
// Run: npm run build && node test/bench/runner-cpu.bench.js
const http = require('node:http');
const { spawn, execFileSync } = require('node:child_process');
const { readFileSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir, loadavg } = require('node:os');
const { join, resolve } = require('node:path');
const { startProcess, machine, freePort, ROOT, START_FLAGS } = require('./lib');

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1670);
const EVERY = Number(process.env.BENCH_EVERY ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 25);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 1);
const BUILDS = (process.env.BENCH_BUILDS ?? join(ROOT, 'dist')).split(',').map((b) => resolve(b));
const PROF = process.env.BENCH_PROF;
const KEY = 'bench-key-0123456789abcdef';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const sleep = (s) => new Promise((r) => setTimeout(r, s * 1000));
const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
/** A process's user and system CPU so far, µs. */
function cpu(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) * TICK_US, system: Number(fields[12]) * TICK_US };
}
const LIMITS = { VIGIL_RATE_LIMIT_PER_MINUTE: '1000000000', VIGIL_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000000', VIGIL_CONNECTIONS_PER_ADDRESS: '1000000' };
/** SIGTERM, then SIGKILL if the runner has not left within 30 s (said: its profile is lost). */
const stopChild = (child) => new Promise((done) => {
  if (child.exitCode !== null) return done();
  const kill = setTimeout(() => (console.log('the runner did not stop within 30 s: killed'), child.kill('SIGKILL')), 30_000);
  child.once('exit', () => (clearTimeout(kill), done()));
  child.kill('SIGTERM');
});

async function post(url, path, body) {
  const response = await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body) });
  return response.status < 300 ? response.json() : Promise.reject(new Error(`${path}: ${response.status} ${await response.text()}`));
}

async function main() {
  let hits = 0;
  // Each monitor has its own query: a round run twice shows as two requests closer than the interval.
  const last = new Map();
  let twice = 0;
  const target = http.createServer((req, res) => {
    hits++;
    const now = Date.now();
    if (now - (last.get(req.url) ?? 0) < (EVERY * 1000) / 2) twice++;
    last.set(req.url, now);
    res.end('ok');
  });
  await new Promise((r) => target.listen(0, '127.0.0.1', r));
  const targetUrl = `http://127.0.0.1:${target.address().port}/`;
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  const api = await startProcess(join(ROOT, 'dist', 'apps', 'api', 'src', 'main.js'), { VIGIL_DATA_DIR: dataDir, VIGIL_BOOTSTRAP_API_KEY: KEY, PORT: String(await freePort()), ...LIMITS }, '/healthz', START_FLAGS);
  const children = [];
  try {
    const { runnerKey } = await post(api.url, '/v1/runner-keys', { location: 'bench', allowPrivateTargets: true });
    const frequency = EVERY >= 60 ? { frequency: EVERY / 60 } : { frequency: 0, frequencyOffset: EVERY };
    for (let i = 0; i < MONITORS; i += 20) {
      await Promise.all(Array.from({ length: Math.min(20, MONITORS - i) }, (_, j) => post(api.url, '/v1/checks/url', { name: `bench ${i + j}`, ...frequency, locations: ['bench'], request: { url: `${targetUrl}?m=${i + j}` } })));
    }
    console.log(`machine: ${machine()}`);
    console.log(`${MONITORS} URL monitors every ${EVERY} s (${(MONITORS / EVERY).toFixed(0)} probes/s planned); ${WARMUP} s warm-up, ${SECONDS} s measured per window`);
    for (let r = 0; r < REPEAT; r++) {
      for (const [b, build] of BUILDS.entries()) {
        const flags = PROF ? ['--cpu-prof', `--cpu-prof-dir=${PROF}`, `--cpu-prof-name=runner-${b}-${r}.cpuprofile`] : [];
        const child = spawn(process.execPath, [...flags, join(build, 'apps', 'runner', 'src', 'main.js')], {
          env: { ...process.env, VIGIL_API_URL: api.url, VIGIL_RUNNER_KEY: runnerKey, VIGIL_RUNNER_LOCATION: 'bench', LOG_LEVEL: 'warn' },
          stdio: ['ignore', 'inherit', 'inherit'],
        });
        children.push(child);
        await sleep(WARMUP);
        if (child.exitCode !== null) throw new Error(`the runner of ${build} exited`);
        const [c0, a0, h0, l0, t0] = [cpu(child.pid), cpu(api.pid), hits, loadavg()[0], twice];
        await sleep(SECONDS);
        const [c1, a1, h1, l1, t1] = [cpu(child.pid), cpu(api.pid), hits, loadavg()[0], twice];
        // A profile is written at a clean exit only; otherwise the runner is killed (a stopping one flushes its queue).
        if (PROF) await stopChild(child);
        else await new Promise((done) => (child.once('exit', done), child.kill('SIGKILL')));
        const probes = h1 - h0;
        const per = (us) => (us / probes).toFixed(0);
        console.log(
          `${build}: ${probes} probes (${(probes / SECONDS).toFixed(0)}/s, ${t1 - t0} sooner than half an interval after the last); runner ${per(c1.user + c1.system - c0.user - c0.system)} µs CPU per probe ` +
            `(user ${per(c1.user - c0.user)}, system ${per(c1.system - c0.system)}); API ${per(a1.user + a1.system - a0.user - a0.system)} µs per probe; load ${l0.toFixed(1)}→${l1.toFixed(1)}`,
        );
        // The next runner starts once this one's presence has lapsed, so it leases every monitor.
        await sleep(12);
      }
    }
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
    target.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
