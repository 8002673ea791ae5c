'use strict';
// Shared helpers for benchmarks: servers as child processes on 127.0.0.1, autocannon as the load.
const { spawn } = require('node:child_process');
const { readFileSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir, cpus, totalmem } = require('node:os');
const { join } = require('node:path');
const net = require('node:net');
const http = require('node:http');
const autocannon = require('autocannon');

const ROOT = join(__dirname, '..', '..');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitForHttp(url, child, getOutput) {
  // A restart beside a working runner, on a shared machine, may take longer than a quiet start.
  const deadline = Date.now() + 90000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${getOutput()}`);
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not yet listening
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${getOutput()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startProcess(script, env, probePath, nodeFlags = []) {
  // A given PORT keeps a restarted server's address.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  let output = '';
  const child = spawn(process.execPath, [...nodeFlags, script], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (output = (output + d).slice(-20000)));
  child.stderr.on('data', (d) => (output = (output + d).slice(-20000)));
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(url + probePath, child, () => output);
  return {
    url,
    pid: child.pid,
    rssMiB: () => rssMiB(child.pid),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
  return Math.round(kb / 1024);
}

/** The reference point: Fastify answering {"hello":"world"}, same Node, same machine, same run. */
function startBareFastify() {
  return startProcess(join(__dirname, 'bare-fastify.js'), {}, '/');
}

/** The Node flags `npm start` runs the API with (package.json), so the benchmark measures what users run. */
const START_FLAGS = require('../../package.json').scripts.start.split(/\s+/).filter((arg) => arg.startsWith('--'));

/** The built Vigil API on a fresh data dir, with a bootstrap key and no effective rate limit. */
async function startVigil(extraEnv = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  const apiKey = 'bench-key-0123456789abcdef';
  const server = await startProcess(
    join(ROOT, 'dist', 'apps', 'api', 'src', 'main.js'),
    {
      VIGIL_DATA_DIR: dataDir,
      VIGIL_BOOTSTRAP_API_KEY: apiKey,
      VIGIL_RATE_LIMIT_PER_MINUTE: '1000000000',
      // The load comes from one address: per-address budgets and the connection cap are not what is measured.
      VIGIL_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000000',
      VIGIL_RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000000',
      VIGIL_CONNECTIONS_PER_ADDRESS: '1000000',
      ...extraEnv,
    },
    '/healthz',
    START_FLAGS,
  );
  const stop = server.stop;
  return {
    ...server,
    apiKey,
    dataDir,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    stop: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs autocannon and reduces its result to the figures the benchmark page reports. */
async function load(options) {
  const result = await autocannon({ connections: 50, duration: 10, pipelining: 1, ...options });
  const non2xx = result.non2xx + result.errors + result.timeouts;
  return {
    requestsPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx,
    status2xx: result['2xx'],
  };
}

/**
 * Open-loop load at an even pace: request i is due at start + i/rate and its latency counts from then, so a
 * stall is charged to every request it held up (no coordinated omission) and the offered load has no bursts
 * (autocannon's `overallRate` sends each connection's quota at the start of every second, and its latency
 * correction assumes a 1 ms interval). Up to `connections` sockets, kept alive unless `keepAlive` is false (a
 * new connection per request, as cron jobs running curl do); excess requests wait for a socket.
 * `path(i)` names request i. Answers the rate achieved, latency percentiles (ms) and how late the client
 * itself sent (its own lag, which counts against the server: ~1 ms from the timer steps).
 */
function paced({ url, rate, duration, connections = 100, path = () => '/', keepAlive = true }) {
  const { hostname, port } = new URL(url);
  const agent = new http.Agent({ keepAlive, maxSockets: connections });
  const total = Math.round(rate * duration);
  if (!(total > 0)) throw new Error(`paced: nothing to send at ${rate}/s for ${duration} s`);
  const latencies = new Float64Array(total);
  let sent = 0;
  let done = 0;
  let non2xx = 0;
  let clientLag = 0;
  return new Promise((resolve) => {
    const start = performance.now();
    const finish = () => {
      agent.destroy();
      const sorted = latencies.slice(0, done).sort();
      const at = (q) => Math.round(sorted[Math.min(done - 1, Math.floor(q * done))] * 10) / 10;
      resolve({ perSecond: Math.round(done / duration), total: done, p50: at(0.5), p99: at(0.99), max: at(1), non2xx, clientLagMs: Math.round(clientLag) });
    };
    const send = (i, due) => {
      let counted = false;
      // Each request is counted once: a socket error may follow an answer that already ended.
      const count = (ok) => {
        if (counted) return;
        counted = true;
        latencies[done++] = performance.now() - due;
        if (!ok) non2xx++;
        if (done === total) finish();
      };
      const request = http.get({ agent, host: hostname, port, path: path(i), timeout: 30_000 }, (response) => {
        response.resume();
        response.on('end', () => count(response.statusCode >= 200 && response.statusCode <= 299));
      });
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', () => count(false));
    };
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - start) * rate) / 1000) + 1);
      if (sent < due) clientLag = Math.max(clientLag, now - (start + (sent * 1000) / rate));
      for (; sent < due; sent++) send(sent, start + (sent * 1000) / rate);
      // Sleep until the next request is due (timers have 1 ms steps): a setImmediate loop would spin a core
      // the server on this 2-core machine needs, which autocannon, measuring bare Fastify, does not do.
      if (sent < total) setTimeout(tick, Math.max(0, start + (sent * 1000) / rate - performance.now()));
    };
    tick();
  });
}

function machine() {
  return `${cpus().length} × ${cpus()[0].model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/** `count` heartbeat checks (hourly, 1 h grace) created 20 at a time; their ping tokens in order. */
async function createChecks(url, count, headers) {
  const tokens = [];
  for (let i = 0; i < count; i += 20) {
    const batch = Array.from({ length: Math.min(20, count - i) }, (_, j) =>
      fetch(`${url}/v1/checks/heartbeat`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `bench ${i + j}`, heartbeat: { period: 1, periodUnit: 'hours', grace: 1, graceUnit: 'hours' } }),
      }).then((r) => r.json()),
    );
    for (const check of await Promise.all(batch)) tokens.push(check.heartbeat.pingToken);
  }
  return tokens;
}

const BENCH_KEY = 'bench-key-0123456789abcdef';

/** The built API in this process on a temp data directory (benchmarks of a path without HTTP): its app, URL and close. */
async function startInProcessApi(name, extraEnv = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `vigil-${name}-`));
  const { loadConfig } = require(join(ROOT, 'dist/libs/platform/src/config'));
  const { createApp } = require(join(ROOT, 'dist/apps/api/src/create-app'));
  const config = loadConfig({
    VIGIL_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    VIGIL_RATE_LIMIT_PER_MINUTE: '1000000000',
    VIGIL_BOOTSTRAP_API_KEY: BENCH_KEY,
    VIGIL_BOOTSTRAP_ACCOUNT_ID: '01900000-0000-7000-8000-00000000b5e7',
    ...extraEnv,
  });
  const app = await createApp({ config });
  const close = async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, url: (await app.getUrl()).replace('[::1]', '127.0.0.1'), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Prints a table of `rounds` runs of `run()` (each does `count` units): units/s and this process's CPU per unit. */
async function cpuRounds(unit, count, rounds, run) {
  console.log(machine());
  console.log(`| round | ${unit}s/s | user µs per ${unit} | system µs per ${unit} |`);
  console.log('|---|---|---|---|');
  for (let r = 1; r <= rounds; r++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await run();
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    console.log(`| ${r} | ${Math.round(count / seconds)} | ${(used.user / count).toFixed(0)} | ${(used.system / count).toFixed(0)} |`);
  }
}

module.exports = { BENCH_KEY, startInProcessApi, cpuRounds, createChecks, startBareFastify, startVigil, startProcess, load, paced, machine, rssMiB, freePort, ROOT, START_FLAGS };
