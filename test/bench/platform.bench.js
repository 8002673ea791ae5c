'use strict';
// Issue 2 benchmark: service create and get beside bare Fastify, same machine, same run.
// Run: npm run build && node test/bench/platform.bench.js
const { startBareFastify, startVigil, load, machine } = require('./lib');

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

async function main() {
  const rows = [];
  const bare = await startBareFastify();
  await load({ url: bare.url, duration: 2 }); // warm-up
  const bareResult = await load({ url: bare.url, duration: DURATION });
  rows.push({ name: 'bare Fastify GET /', ...bareResult, rss: bare.rssMiB() });
  await bare.stop();

  const vigil = await startVigil();
  const created = await fetch(`${vigil.url}/v1/status-pages/services`, {
    method: 'POST',
    headers: vigil.headers,
    body: JSON.stringify({ name: 'API' }),
  }).then((r) => r.json());

  const create = await load({
    url: `${vigil.url}/v1/status-pages/services`,
    method: 'POST',
    headers: vigil.headers,
    body: JSON.stringify({ name: 'Bench service' }),
    connections: 20,
    duration: DURATION,
  });
  rows.push({ name: 'POST /v1/status-pages/services', ...create, rss: vigil.rssMiB() });

  await load({ url: `${vigil.url}/v1/status-pages/services/${created.id}`, headers: vigil.headers, duration: 2 });
  const get = await load({ url: `${vigil.url}/v1/status-pages/services/${created.id}`, headers: vigil.headers, duration: DURATION });
  rows.push({ name: 'GET /v1/status-pages/services/{id}', ...get, rss: vigil.rssMiB() });
  await vigil.stop();

  console.log(`Machine: ${machine()}`);
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
