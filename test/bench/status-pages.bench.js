'use strict';
// Issue 4 benchmark: the status page list (endpoint 8, GET /v1/status-pages, default limit 20) with 50 pages ×
// 5 cards × 5 services and 200 incidents, beside bare Fastify in the same run. 127.0.0.1 only.
// Run: npm run build && node test/bench/status-pages.bench.js
//
// Data set (one account, everything written through the API):
// - 50 pages, each with 5 cards of 5 services; every page has its own 25 services (1,250 services);
// - 200 incidents, 4 per page, each naming 1–3 services of its page: two open (one just created, one with an
//   IDENTIFIED update), one resolved yesterday (still shown for 7 days) and one resolved 30 days ago (not shown),
//   the last two backfilled through publicIncidentUpdateDate;
// - so every listed page carries 25 full services and 3 full incidents.
// BENCH_SHARED=1 instead gives every page the same 25 services, so each page shows all 150 visible incidents
// (a worst case: 20 × 150 incidents per response).
// Then the same list with a writer beside it renaming the pages' services at BENCH_WRITE_RATES per second
// (default 10 and 100): every write changes what the list shows, so the next list is built afresh.
const { startBareFastify, startVigil, load, machine } = require('./lib');

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PAGES = 50;
const CARDS = 5;
const PER_CARD = 5;
const INCIDENTS = 200;
const SHARED = process.env.BENCH_SHARED === '1';
const WRITE_RATES = (process.env.BENCH_WRITE_RATES ?? '10,100').split(',').filter(Boolean).map(Number);
const DAY = 24 * 60 * 60 * 1000;

async function api(vigil, method, path, body) {
  const response = await fetch(vigil.url + path, { method, headers: vigil.headers, body: body && JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Runs `work(i)` for i in [0, count) with `width` requests in flight. */
async function parallel(count, width, work) {
  const out = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await work(i);
      }
    }),
  );
  return out;
}

function incidentBody(pageServices, i) {
  const kind = i % 4;
  const services = Array.from({ length: 1 + (i % 3) }, (_, k) => ({ id: pageServices[(i * 7 + k * 5) % pageServices.length].id }));
  const now = Date.now();
  const at = (msAgo) => new Date(now - msAgo).toISOString();
  const base = { name: `Incident ${i}: elevated error rates`, severity: ['CRITICAL', 'MAJOR', 'MEDIUM', 'MINOR'][i % 4], services };
  const investigating = 'We are investigating elevated error rates on the API.';
  switch (kind) {
    case 0:
      return { ...base, incidentUpdates: [{ description: investigating }] };
    case 1:
      return {
        ...base,
        incidentUpdates: [
          { description: investigating, publicIncidentUpdateDate: at(2 * 60 * 60 * 1000) },
          { description: 'The cause is a faulty deploy; rolling back.', status: 'IDENTIFIED', publicIncidentUpdateDate: at(60 * 60 * 1000) },
        ],
      };
    case 2:
      return {
        ...base,
        incidentUpdates: [
          { description: investigating, publicIncidentUpdateDate: at(DAY + 60 * 60 * 1000) },
          { description: 'Error rates are back to normal.', status: 'RESOLVED', publicIncidentUpdateDate: at(DAY) },
        ],
      };
    default:
      return {
        ...base,
        incidentUpdates: [
          { description: investigating, publicIncidentUpdateDate: at(30 * DAY + 60 * 60 * 1000) },
          { description: 'Error rates are back to normal.', status: 'RESOLVED', publicIncidentUpdateDate: at(30 * DAY) },
        ],
      };
  }
}

async function seed(vigil) {
  const perPage = CARDS * PER_CARD;
  const serviceCount = SHARED ? perPage : PAGES * perPage;
  const services = await parallel(serviceCount, 20, (i) => api(vigil, 'POST', '/v1/status-pages/services', { name: `Service ${i}` }));
  const servicesOf = (p) => (SHARED ? services : services.slice(p * perPage, (p + 1) * perPage));
  const pages = await parallel(PAGES, 10, (p) =>
    api(vigil, 'POST', '/v1/status-pages', {
      name: `Status page ${p}`,
      url: `bench-page-${p}`,
      customDomain: `status${p}.example.com`,
      logo: `https://example.com/logo-${p}.png`,
      cards: Array.from({ length: CARDS }, (_, c) => ({
        name: `Card ${c}`,
        services: servicesOf(p)
          .slice(c * PER_CARD, (c + 1) * PER_CARD)
          .map((s) => ({ id: s.id })),
      })),
    }),
  );
  await parallel(INCIDENTS, 20, (i) => api(vigil, 'POST', '/v1/status-pages/incidents', incidentBody(servicesOf(Math.floor(i / 4) % PAGES), i)));
  return { services, pages };
}

/** Renames services one after another at `perSec`, until stopped; reports what it achieved. */
function steadyWriter(vigil, services, perSec) {
  let running = true;
  let done = 0;
  let failed = 0;
  const started = Date.now();
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const due = started + (i * 1000) / perSec;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      const service = services[i % services.length];
      const response = await fetch(`${vigil.url}/v1/status-pages/services/${service.id}`, {
        method: 'PUT',
        headers: vigil.headers,
        body: JSON.stringify({ name: `${service.name.split(' #')[0]} #${i}` }),
      });
      await response.arrayBuffer();
      if (response.ok) done++;
      else failed++;
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { perSec: Math.round((done * 1000) / (Date.now() - started)), failed };
    },
  };
}

async function main() {
  const rows = [];
  const bare = await startBareFastify();
  await load({ url: bare.url, duration: 2, connections: CONNECTIONS });
  const bareResult = await load({ url: bare.url, duration: DURATION, connections: CONNECTIONS });
  rows.push({ name: 'bare Fastify GET /', ...bareResult, rss: bare.rssMiB(), bytes: 17 });
  await bare.stop();

  const vigil = await startVigil(process.env.BENCH_VIGIL_ENV ? JSON.parse(process.env.BENCH_VIGIL_ENV) : {});
  try {
    const started = Date.now();
    await seed(vigil);
    console.error(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const url = `${vigil.url}/v1/status-pages`;
    const sample = await api(vigil, 'GET', '/v1/status-pages');
    const bytes = Buffer.byteLength(JSON.stringify(sample));
    const incidentsShown = sample.entries.reduce((n, page) => n + page.incidents.length, 0);
    if (sample.length !== 20 || !sample.nextId || sample.entries.some((p) => p.cards.length !== CARDS)) throw new Error('unexpected list shape');
    console.error(`response: ${sample.length} pages, ${incidentsShown} incidents, ${bytes} bytes`);

    if (process.env.BENCH_WAIT_BEFORE_LOAD) {
      console.error(`server pid ${vigil.pid}; press enter to start the load`);
      await new Promise((resolve) => process.stdin.once('data', resolve));
    }
    await load({ url, headers: vigil.headers, duration: 2, connections: CONNECTIONS });
    const list = await load({ url, headers: vigil.headers, duration: DURATION, connections: CONNECTIONS });
    rows.push({ name: `GET /v1/status-pages (20 of 50 pages${SHARED ? ', shared services' : ''})`, ...list, rss: vigil.rssMiB(), bytes });

    // The same list while the account keeps changing: a service on the listed pages is renamed every
    // 1000/WRITES_PER_SEC ms, so each write makes the next list a fresh build.
    for (const rate of WRITE_RATES) {
      const writer = steadyWriter(vigil, sample.entries.flatMap((page) => page.cards.flatMap((card) => card.services)), rate);
      const busy = await load({ url, headers: vigil.headers, duration: DURATION, connections: CONNECTIONS });
      const writes = await writer.stop();
      rows.push({
        name: `GET /v1/status-pages, ${writes.perSec} writes/s beside it (${writes.failed} failed)`,
        ...busy,
        rss: vigil.rssMiB(),
        bytes,
      });
    }
  } finally {
    await vigil.stop();
  }

  console.log(`Machine: ${machine()}; ${DURATION} s per run, ${CONNECTIONS} connections`);
  console.log('| endpoint | requests/s | % of bare | p50 ms | p99 ms | RSS MiB | response bytes | non-2xx |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const share = Math.round((row.requestsPerSec / bareResult.requestsPerSec) * 100);
    console.log(`| ${row.name} | ${row.requestsPerSec} | ${share}% | ${row.p50} | ${row.p99} | ${row.rss} | ${row.bytes} | ${row.non2xx} |`);
  }
}

module.exports = { seed };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
