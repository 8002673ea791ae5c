'use strict';
// Issue 6 benchmark: time to first byte of the AI agent stream (builtin provider), and time to the whole answer.
// Sequential requests on one keep-alive connection, then a few in parallel; all to 127.0.0.1.
// Run: npm run build && node test/bench/agent.bench.js   (BENCH_REQUESTS=2000, BENCH_PARALLEL=8)
const http = require('node:http');
const { startVigil, machine } = require('./lib');

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 8);
const WARMUP = 200;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** One POST; resolves with ms to the first body byte and ms to the end, and the body. */
function timedRequest(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    let first = null;
    let text = '';
    const request = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        if (first === null) first = process.hrtime.bigint();
        text += chunk;
      });
      response.on('end', () => {
        const end = process.hrtime.bigint();
        resolve({ status: response.statusCode, ttfb: Number(first - start) / 1e6, total: Number(end - start) / 1e6, text });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

function summarize(name, results) {
  const ttfb = results.map((r) => r.ttfb).sort((a, b) => a - b);
  const total = results.map((r) => r.total).sort((a, b) => a - b);
  const failures = results.filter((r) => r.status !== 200 || !r.text.endsWith('data: [DONE]\n\n')).length;
  const f = (n) => n.toFixed(2);
  return `| ${name} | ${results.length} | ${f(percentile(ttfb, 50))} | ${f(percentile(ttfb, 99))} | ${f(ttfb[ttfb.length - 1])} | ${f(percentile(total, 50))} | ${f(percentile(total, 99))} | ${failures} |`;
}

async function post(vigil, path, body) {
  const response = await fetch(vigil.url + path, { method: 'POST', headers: vigil.headers, body: JSON.stringify(body) });
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function main() {
  const vigil = await startVigil();
  try {
    // Some data for the answer to be built from: a page, two services, an open incident, a check.
    const api = await post(vigil, '/v1/status-pages/services', { name: 'API' });
    const db = await post(vigil, '/v1/status-pages/services', { name: 'Database' });
    await post(vigil, '/v1/status-pages', { name: 'Bench status', url: 'bench-status', cards: [{ name: 'Core', services: [{ id: api.id }, { id: db.id }] }] });
    await post(vigil, '/v1/status-pages/incidents', {
      name: 'Checkout errors',
      severity: 'MAJOR',
      services: [{ id: api.id }],
      incidentUpdates: [{ description: 'Investigating failed checkouts' }],
    });
    await post(vigil, '/v1/checks/heartbeat', { name: 'nightly-backup', heartbeat: { period: 1, periodUnit: 'hours', grace: 5, graceUnit: 'minutes' } });
    const url = `${vigil.url}/accounts/${api.accountId}/ai/agents/stream`;
    const body = JSON.stringify({ messages: [{ role: 'user', content: 'What is down right now, and which incidents are open?' }] });

    const agent = new http.Agent({ keepAlive: true, maxSockets: PARALLEL });
    for (let i = 0; i < WARMUP; i++) await timedRequest(agent, url, vigil.headers, body);

    const sequential = [];
    for (let i = 0; i < REQUESTS; i++) sequential.push(await timedRequest(agent, url, vigil.headers, body));

    const parallel = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < REQUESTS) {
          next++;
          parallel.push(await timedRequest(agent, url, vigil.headers, body));
        }
      }),
    );
    agent.destroy();

    console.log(`Machine: ${machine()}; RSS after the run: ${vigil.rssMiB()} MiB`);
    console.log('| run | requests | TTFB p50 ms | TTFB p99 ms | TTFB max ms | whole answer p50 ms | whole answer p99 ms | failures |');
    console.log('|---|---|---|---|---|---|---|---|');
    console.log(summarize('sequential, 1 connection', sequential));
    console.log(summarize(`${PARALLEL} in parallel`, parallel));
  } finally {
    await vigil.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
