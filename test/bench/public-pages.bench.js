'use strict';
// Issue 19 benchmark: a public status page with 20 services and 50 incidents in the last 90 days, beside bare
// Fastify in the same run. 127.0.0.1 only.
// Run: npm run build && node test/bench/public-pages.bench.js
//
// Data set (one account, written through the API): one page, 2 cards × 10 services; 50 incidents, each on
// 1–3 services: 3 still open, 47 resolved and spread over the last 90 days (backfilled through
// publicIncidentUpdateDate, 1–6 h each), so the uptime bars have ~100 incident days.
// Measures: GET /status/{url} warm (requests/s, plain and as browsers ask for it, gzip), its size, GET …/api/v2/summary.json warm,
// and the latency of the first render after a write (a service rename, then one GET; sequential).
const { gzipSync } = require('node:zlib');
const { startBareFastify, startVigil, load, machine } = require('./lib');

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SERVICES = 20;
const INCIDENTS = 50;
const OPEN = 3;
const WRITE_SAMPLES = Number(process.env.BENCH_WRITE_SAMPLES ?? 300);
const DAY = 24 * 60 * 60 * 1000;

async function api(vigil, method, path, body) {
  const response = await fetch(vigil.url + path, { method, headers: vigil.headers, body: body && JSON.stringify(body) });
  const json = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

function incidentBody(services, i) {
  const picked = Array.from({ length: 1 + (i % 3) }, (_, k) => ({ id: services[(i * 7 + k * 3) % services.length].id }));
  const base = { name: `Incident ${i}: elevated error rates on the API`, severity: ['CRITICAL', 'MAJOR', 'MEDIUM', 'MINOR'][i % 4], services: picked };
  const investigating = 'We are investigating **elevated error rates** on the API. See [the runbook](https://example.com/runbook).';
  if (i < OPEN) return { ...base, incidentUpdates: [{ description: investigating }] };
  const now = Date.now();
  const start = now - Math.round(((i - OPEN + 0.5) / (INCIDENTS - OPEN)) * 89 * DAY);
  const at = (ms) => new Date(ms).toISOString();
  return {
    ...base,
    incidentUpdates: [
      { description: investigating, publicIncidentUpdateDate: at(start) },
      { description: 'The cause is a faulty deploy; rolling back.', status: 'IDENTIFIED', publicIncidentUpdateDate: at(start + 30 * 60_000) },
      { description: 'Error rates are back to normal.', status: 'RESOLVED', publicIncidentUpdateDate: at(start + (1 + (i % 6)) * 3600_000) },
    ],
  };
}

async function seed(vigil) {
  const services = [];
  for (let i = 0; i < SERVICES; i++) services.push(await api(vigil, 'POST', '/v1/status-pages/services', { name: `Service ${i + 1}` }));
  const page = await api(vigil, 'POST', '/v1/status-pages', {
    name: 'Acme Cloud',
    url: 'bench-public',
    description: 'Live status of the Acme Cloud platform.',
    cards: [
      { name: 'Core platform', services: services.slice(0, 10).map((s) => ({ id: s.id })) },
      { name: 'Edge and delivery', services: services.slice(10).map((s) => ({ id: s.id })) },
    ],
  });
  for (let i = 0; i < INCIDENTS; i++) await api(vigil, 'POST', '/v1/status-pages/incidents', incidentBody(services, i));
  return { services, page };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Sequential: rename a service shown on the page, then time one GET of the page (which must show the new name).
 * With `write` false, the same loop without the rename: the round trip of a kept page, for comparison.
 */
async function firstRenderAfterWrite(vigil, services, url, write = true) {
  const times = [];
  for (let i = 0; i < WRITE_SAMPLES; i++) {
    const service = services[i % services.length];
    const name = write ? `Service ${(i % services.length) + 1} r${i}` : '';
    if (write) await api(vigil, 'PUT', `/v1/status-pages/services/${service.id}`, { name });
    const started = process.hrtime.bigint();
    const response = await fetch(url);
    const html = await response.text();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (!html.includes(name)) throw new Error('the write did not show on the next render');
    times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50).toFixed(1), p99: percentile(times, 99).toFixed(1), max: times[times.length - 1].toFixed(1) };
}

async function main() {
  const rows = [];
  const bare = await startBareFastify();
  await load({ url: bare.url, duration: 2, connections: CONNECTIONS });
  const bareResult = await load({ url: bare.url, duration: DURATION, connections: CONNECTIONS });
  rows.push({ name: 'bare Fastify GET /', ...bareResult, bytes: 17 });
  await bare.stop();

  const vigil = await startVigil();
  let size;
  let write;
  try {
    const { services } = await seed(vigil);
    const pageUrl = `${vigil.url}/status/bench-public`;
    const html = await (await fetch(pageUrl)).text();
    if (!html.includes('class="bars"') || (html.match(/class="bars"/g) ?? []).length !== SERVICES) throw new Error('unexpected page');
    const foreign = [...html.matchAll(/(?:src|href)="(https?:[^"]+)"/g)].map((m) => m[1]).filter((u) => !u.startsWith('https://example.com/runbook'));
    size = { bytes: Buffer.byteLength(html), gzip: gzipSync(html).length, incidentDays: (html.match(/\d+ incidents?[ (<]/g) ?? []).length, foreign: foreign.length };

    await load({ url: pageUrl, duration: 2, connections: CONNECTIONS });
    rows.push({ name: 'GET /status/{url} (HTML, warm)', ...(await load({ url: pageUrl, duration: DURATION, connections: CONNECTIONS })), bytes: size.bytes });
    // As browsers ask for it: the kept answer's gzip is made once.
    const gzipHeaders = { 'accept-encoding': 'gzip, deflate, br' };
    rows.push({ name: 'GET /status/{url} (HTML, warm, Accept-Encoding: gzip)', ...(await load({ url: pageUrl, headers: gzipHeaders, duration: DURATION, connections: CONNECTIONS })), bytes: size.gzip });
    const summaryUrl = `${pageUrl}/api/v2/summary.json`;
    const summaryBytes = Buffer.byteLength(await (await fetch(summaryUrl)).text());
    await load({ url: summaryUrl, duration: 2, connections: CONNECTIONS });
    rows.push({ name: 'GET …/api/v2/summary.json (warm)', ...(await load({ url: summaryUrl, duration: DURATION, connections: CONNECTIONS })), bytes: summaryBytes });
    write = await firstRenderAfterWrite(vigil, services, pageUrl);
    write.kept = await firstRenderAfterWrite(vigil, services, pageUrl, false);
    rows.forEach((row) => (row.rss ??= vigil.rssMiB()));
  } finally {
    await vigil.stop();
  }

  console.log(`Machine: ${machine()}; ${DURATION} s per run, ${CONNECTIONS} connections`);
  console.log('| endpoint | requests/s | % of bare | p50 ms | p99 ms | bytes | non-2xx |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const share = Math.round((row.requestsPerSec / bareResult.requestsPerSec) * 100);
    console.log(`| ${row.name} | ${row.requestsPerSec} | ${share}% | ${row.p50} | ${row.p99} | ${row.bytes} | ${row.non2xx} |`);
  }
  console.log(`HTML: ${size.bytes} bytes, ${size.gzip} bytes gzip, ${size.incidentDays} incident days in the bars, ${size.foreign} third-party URLs`);
  console.log(`First render after a write (${WRITE_SAMPLES} sequential renames, one GET each): p50 ${write.p50} ms, p99 ${write.p99} ms, max ${write.max} ms`);
  console.log(`Same loop without the writes (kept page): p50 ${write.kept.p50} ms, p99 ${write.kept.p99} ms, max ${write.kept.max} ms`);
}

module.exports = { seed };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
