'use strict';
// Issue 3 benchmark: incident create, post update, get and list (limit 20) with 10,000 incidents
// stored, beside bare Fastify in the same run. 127.0.0.1 only.
// Run: npm run build && node test/bench/incidents.bench.js
const { startBareFastify, startVigil, load, machine } = require('./lib');

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const STORED = Number(process.env.BENCH_INCIDENTS ?? 10000);
const INCIDENTS = '/v1/status-pages/incidents';

async function api(vigil, method, path, body) {
  const response = await fetch(vigil.url + path, { method, headers: vigil.headers, body: body && JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const incidentBody = (services, i) => ({
  name: `Bench incident ${i}`,
  severity: ['CRITICAL', 'MAJOR', 'MEDIUM', 'MINOR'][i % 4],
  services: services.slice(0, 1 + (i % services.length)).map((s) => ({ id: s.id })),
  incidentUpdates: [{ description: 'We are investigating elevated error rates on the API.' }],
});

async function seed(vigil, services, count) {
  const ids = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < count) {
        const i = next++;
        ids.push((await api(vigil, 'POST', INCIDENTS, incidentBody(services, i))).id);
      }
    }),
  );
  return ids;
}

/**
 * autocannon over many ids. GETs go through requests built once (autocannon rebuilds a request for
 * every call when it has a setupRequest, which costs the client more than the cached answer costs the
 * server); each connection walks the ids in turn. Writes take the ids one after another across all
 * connections, so concurrent writers rarely share an incident.
 */
function rotating(vigil, method, paths, body, options = {}) {
  const base = { method, ...(body && { body: JSON.stringify(body) }) };
  let i = 0;
  const requests =
    method === 'GET'
      ? paths.map((path) => ({ ...base, path }))
      : [{ ...base, setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }];
  return load({ url: vigil.url, headers: vigil.headers, requests, duration: DURATION, ...options });
}

async function main() {
  const rows = [];
  const bare = await startBareFastify();
  await load({ url: bare.url, duration: 2 });
  const bareResult = await load({ url: bare.url, duration: DURATION });
  rows.push({ name: 'bare Fastify GET /', ...bareResult, rss: bare.rssMiB() });
  await bare.stop();

  const vigil = await startVigil();
  try {
    const services = [];
    for (const name of ['API', 'Dashboard', 'Webhooks']) services.push(await api(vigil, 'POST', '/v1/status-pages/services', { name }));
    const started = Date.now();
    const ids = await seed(vigil, services, STORED);
    console.error(`seeded ${ids.length} incidents in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // Every 10th incident: 1,000 ids spread over the 10,000. autocannon keeps a built request per id for each of
    // its 50 connections; with all 10,000 the client (~430 MiB, cache-unfriendly) became the bottleneck in some
    // runs and the server sat idle.
    const getPaths = ids.filter((_, i) => i % 10 === 0).map((id) => `${INCIDENTS}/${id}`);
    // Warm-up: each of them read once (autocannon's connections all walk the ids in the same order, so a
    // timed warm-up would leave the later ids to the measured run), then 5 s of load while the seeding's WAL
    // is checkpointed.
    let nextRead = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (nextRead < getPaths.length) await api(vigil, 'GET', getPaths[nextRead++]);
      }),
    );
    await rotating(vigil, 'GET', getPaths, undefined, { duration: 5 });
    const get = await rotating(vigil, 'GET', getPaths);
    rows.push({ name: `GET ${INCIDENTS}/{id}`, ...get, rss: vigil.rssMiB() });

    await load({ url: `${vigil.url}${INCIDENTS}?limit=20`, headers: vigil.headers, duration: 2 });
    const list = await load({ url: `${vigil.url}${INCIDENTS}?limit=20`, headers: vigil.headers, duration: DURATION });
    rows.push({ name: `GET ${INCIDENTS}?limit=20`, ...list, rss: vigil.rssMiB() });

    const create = await load({
      url: `${vigil.url}${INCIDENTS}`,
      method: 'POST',
      headers: vigil.headers,
      body: JSON.stringify(incidentBody(services, 1)),
      connections: 20,
      duration: DURATION,
    });
    rows.push({ name: `POST ${INCIDENTS}`, ...create, rss: vigil.rssMiB() });

    const update = await rotating(
      vigil,
      'POST',
      ids.map((id) => `${INCIDENTS}/${id}/incident-updates`),
      { description: 'We have identified the cause and are rolling out a fix.', status: 'IDENTIFIED' },
      { connections: 20 },
    );
    rows.push({ name: `POST ${INCIDENTS}/{id}/incident-updates`, ...update, rss: vigil.rssMiB() });
  } finally {
    await vigil.stop();
  }

  console.log(`Machine: ${machine()}; ${STORED} incidents stored; ${DURATION} s per run`);
  console.log('| endpoint | requests/s | % of bare | p50 ms | p99 ms | RSS MiB | non-2xx |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const share = Math.round((row.requestsPerSec / bareResult.requestsPerSec) * 100);
    console.log(`| ${row.name} | ${row.requestsPerSec} | ${share}% | ${row.p50} | ${row.p99} | ${row.rss} | ${row.non2xx} |`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

