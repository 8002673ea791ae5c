'use strict';
// Issue 35 benchmark: the operator console with 1,000 checks, 500 incidents and 20 status pages, all written
// through the API. 127.0.0.1 only.
// Run: npm run build && node test/bench/console.bench.js
//
// A person is made a member with the admin CLI and signed in with its link, as a team's first person is. Then:
// each console page (the header's screens, found on the overview, plus an incident's and a check's page) is
// fetched once for its size (as sent, and gzipped here for comparison), then loaded for BENCH_SECONDS by
// BENCH_CONNECTIONS connections (latency p50/p99); last, with the overview's event stream open, a ping that
// changes a check's state is timed until the stream says `change` (BENCH_SSE_SAMPLES rounds, sequential); and the
// overview and checks list are timed right after a ping (their first read after a write).
const { spawn } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const { join } = require('node:path');
const { gzipSync } = require('node:zlib');
const { createChecks, startVigil, load, machine, ROOT } = require('./lib');

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
// One connection: the time a page takes to answer a person; BENCH_CONNECTIONS=5 for a team at once.
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);
const CHECKS = 1000;
const INCIDENTS = 500;
const OPEN = 20;
const PAGES = 20;
const SERVICES = 40;
const SSE_SAMPLES = Number(process.env.BENCH_SSE_SAMPLES ?? 20);
const DAY = 86_400_000;

async function api(vigil, method, path, body) {
  const response = await fetch(vigil.url + path, { method, headers: vigil.headers, body: body && JSON.stringify(body) });
  const json = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** The admin CLI on the server's data directory (safe while it runs). */
function cli(vigil, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js'), ...args], { env: { ...process.env, VIGIL_DATA_DIR: vigil.dataDir, VIGIL_PUBLIC_URL: vigil.url, LOG_LEVEL: 'error' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`cli ${args.join(' ')}: ${code} ${out}${err}`))));
  });
}

async function signIn(vigil, accountId) {
  await cli(vigil, ['users', 'create', '--email', 'bench@example.com', '--account', accountId, '--role', 'ADMIN']);
  const printed = await cli(vigil, ['users', 'login-link', '--email', 'bench@example.com', '--json']);
  const { url } = JSON.parse(printed.trim().split('\n').pop());
  const token = new URL(url).searchParams.get('token');
  const response = await fetch(`${vigil.url}/console/sign-in/link`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: vigil.url, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ token }).toString(),
  });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
  if (response.status !== 303 || !cookie) throw new Error(`sign-in: ${response.status}`);
  return cookie;
}

async function seed(vigil) {
  const services = [];
  for (let i = 0; i < SERVICES; i++) services.push(await api(vigil, 'POST', '/v1/status-pages/services', { name: `Service ${i + 1}` }));
  for (let p = 0; p < PAGES; p++) {
    const mine = services.filter((_, i) => i % PAGES === p || i % 7 === p % 7);
    await api(vigil, 'POST', '/v1/status-pages', { name: `Status ${p + 1}`, url: `bench-console-${p + 1}`, cards: [{ name: 'Core', services: mine.map((s) => ({ id: s.id })) }] });
  }
  const tokens = await createChecks(vigil.url, CHECKS, vigil.headers);
  // A realistic spread of states: most up, some failing, a few paused (a ping resumes them) or never pinged.
  for (let i = 0; i < CHECKS; i += 10) {
    const batch = tokens.slice(i, i + 10).map((token, j) => (i + j) % 50 === 0 ? null : fetch(`${vigil.url}/ping/${token}${(i + j) % 13 === 0 ? '/fail' : ''}`).then((r) => r.text()));
    await Promise.all(batch);
  }
  const now = Date.now();
  for (let i = 0; i < INCIDENTS; i++) {
    const picked = Array.from({ length: 1 + (i % 3) }, (_, k) => ({ id: services[(i * 7 + k * 3) % SERVICES].id }));
    const start = now - Math.round(((i + 0.5) / INCIDENTS) * 365 * DAY);
    const at = (ms) => new Date(ms).toISOString();
    const text = 'We are investigating **elevated error rates** on the API. See [the runbook](https://example.com/runbook).';
    const updates = i < OPEN
      ? [{ description: text, publicIncidentUpdateDate: at(now - i * 60_000) }]
      : [
          { description: text, publicIncidentUpdateDate: at(start) },
          { description: 'The cause is a faulty deploy; rolling back.', status: 'IDENTIFIED', publicIncidentUpdateDate: at(start + 30 * 60_000) },
          { description: 'Error rates are back to normal.', status: 'RESOLVED', publicIncidentUpdateDate: at(start + 3_600_000) },
        ];
    await api(vigil, 'POST', '/v1/status-pages/incidents', { name: `Incident ${i}: elevated error rates`, severity: ['CRITICAL', 'MAJOR', 'MEDIUM', 'MINOR'][i % 4], services: picked, incidentUpdates: updates });
  }
  return tokens;
}

/** The overview's navigation (every screen the header lists), an open incident's page and a check's page. */
async function consolePaths(vigil, cookie) {
  const overview = await (await fetch(`${vigil.url}/console`, { headers: { cookie } })).text();
  const nav = overview.slice(overview.indexOf('<nav'), overview.indexOf('</nav>'));
  const screens = [...nav.matchAll(/href="(\/console[^"]*)"/g)].map((m) => m[1]);
  const incident = /href="(\/console\/incidents\/[0-9a-f-]{36})"/.exec(overview)[1];
  const check = /href="(\/console\/checks\/[0-9a-f-]{36})"/.exec(overview)[1];
  return [...new Set([...screens, incident, check])];
}

async function measurePage(vigil, cookie, path) {
  const response = await fetch(vigil.url + path, { headers: { cookie, 'accept-encoding': 'gzip' } });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  const encoding = response.headers.get('content-encoding') ?? 'identity';
  const sent = Number(response.headers.get('content-length')) || Buffer.byteLength(html);
  const result = await load({ url: vigil.url + path, headers: { cookie, 'accept-encoding': 'gzip' }, duration: DURATION, connections: CONNECTIONS });
  return { path, sentKB: +(sent / 1024).toFixed(1), encoding, htmlKB: +(Buffer.byteLength(html) / 1024).toFixed(1), gzipKB: +(gzipSync(html).length / 1024).toFixed(1), perSec: result.requestsPerSec, p50: result.p50, p99: result.p99, non2xx: result.non2xx };
}

/** Opens the overview's stream, then times pings that flip a check between UP and FAILING until each `change`. */
async function sseLatency(vigil, cookie, token) {
  const abort = new AbortController();
  const response = await fetch(`${vigil.url}/console/events`, { headers: { cookie }, signal: abort.signal });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  const until = async (pattern) => {
    const giveUp = setTimeout(() => abort.abort(), 15_000);
    while (!pattern.test(seen)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended: ${seen}`);
      seen += decoder.decode(value);
    }
    clearTimeout(giveUp);
    seen = seen.replace(pattern, '');
  };
  await until(/event: ready\n/);
  const times = [];
  for (let i = 0; i < SSE_SAMPLES; i++) {
    // A change event may still be on its way from the previous round's page: wait it out, then start clean.
    await new Promise((r) => setTimeout(r, 1200 + Math.random() * 500));
    seen = '';
    const started = performance.now();
    await fetch(`${vigil.url}/ping/${token}${i % 2 === 0 ? '/fail' : ''}`).then((r) => r.text());
    await until(/event: change\n/);
    times.push(performance.now() - started);
  }
  abort.abort();
  times.sort((a, b) => a - b);
  const at = (q) => Math.round(times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]);
  return { samples: times.length, p50: at(0.5), p99: at(0.99), max: Math.round(times[times.length - 1]) };
}

/** The screens that count checks, each fetched right after a ping: the first read after a write loads the account's checks again. */
async function afterWrite(vigil, cookie, token) {
  const out = {};
  for (const path of ['/console', '/console/checks']) {
    const times = [];
    for (let i = 0; i < SSE_SAMPLES; i++) {
      await fetch(`${vigil.url}/ping/${token}${i % 2 === 0 ? '/fail' : ''}`).then((r) => r.text());
      const started = performance.now();
      const response = await fetch(vigil.url + path, { headers: { cookie } });
      await response.text();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    out[path] = { p50: Math.round(times[Math.floor(times.length / 2)]), max: Math.round(times[times.length - 1]) };
  }
  return out;
}

async function main() {
  const accountId = randomUUID();
  const vigil = await startVigil({ VIGIL_BOOTSTRAP_ACCOUNT_ID: accountId });
  try {
    const seeding = performance.now();
    const tokens = await seed(vigil);
    console.log(`seeded ${CHECKS} checks, ${INCIDENTS} incidents, ${PAGES} pages in ${Math.round((performance.now() - seeding) / 1000)} s`);
    const cookie = await signIn(vigil, accountId);
    console.log('signed in');
    const rows = [];
    for (const path of await consolePaths(vigil, cookie)) {
      const row = await measurePage(vigil, cookie, path);
      rows.push(row);
      console.log(JSON.stringify(row));
    }
    const sse = await sseLatency(vigil, cookie, tokens[1]);
    console.log(JSON.stringify({ sse }));
    console.log(JSON.stringify({ afterWrite: await afterWrite(vigil, cookie, tokens[2]) }));
    console.log(`machine: ${machine()}; ${CONNECTIONS} connections, ${DURATION} s per page; RSS ${vigil.rssMiB()} MiB`);
    const worst = rows.reduce((a, b) => (b.p99 > a.p99 ? b : a));
    const biggest = rows.reduce((a, b) => (b.sentKB > a.sentKB ? b : a));
    console.log(`worst p99 ${worst.p99} ms (${worst.path}); largest transfer ${biggest.sentKB} KB ${biggest.encoding} (${biggest.path}); change → stream p99 ${sse.p99} ms`);
  } finally {
    await vigil.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
