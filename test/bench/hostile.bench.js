'use strict';
// A hostile day (issue 32): while the worst custom template Vigil accepts renders on every delivery and a flood
// of subscription writes runs, GET /healthz and a ping must answer within 100 ms p99. Then slow clients: many
// connections that trickle their headers (BENCH_SLOW, 19,000, spread over 127.0.x.y addresses) while others are
// served. Needs `npm run build`. Run: node test/bench/hostile.bench.js
const http = require('node:http');
const net = require('node:net');
const { createChecks, machine, paced, startVigil } = require('./lib');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
// Each side holds one descriptor per connection: under `ulimit -n` 20,000, 19,000 leaves room for the rest.
const SLOW = Number(process.env.BENCH_SLOW ?? 19_000);
// BENCH_LOAD: `both` (default), `renders` or `subscriptions`, to tell which load costs what.
const LOAD = process.env.BENCH_LOAD ?? 'both';
const PROBE_RATE = 20; // per second, each of /healthz and a ping

/** The worst accepted template: 3 levels deep, its block and output budgets nearly spent on every render. */
const WORST_TEMPLATE = '{"x":"{{#each this}}{{#each ../this}}{{#if ../this}}{{@key}}{{/if}}{{/each}}{{/each}}{{#each this}}{{#with ../this}}{{ALERT_TITLE}}{{/with}}{{/each}}"}';

async function json(url, method, headers, body) {
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function receiver() {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end('ok');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, received: () => received, close: () => new Promise((r) => server.close(r)) };
}

/** Repeats `step` back to back until `until()`; counts completions and errors. */
async function loop(until, step) {
  let done = 0;
  let failed = 0;
  while (!until()) {
    try {
      await step(done);
      done++;
    } catch {
      failed++;
    }
  }
  return { done, failed };
}

async function hostileLoad() {
  const hook = await receiver();
  // Pings are probes here, not a flood: their per-token budget is off.
  const vigil = await startVigil({ VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true', VIGIL_PING_RATE_BURST: '0' });
  try {
    // Pings rotate over 100 checks: one check pinged 20 times a second would measure its own stream's queue.
    const tokens = await createChecks(vigil.url, 100, vigil.headers);
    const channel = await json(`${vigil.url}/v1/alert-channels`, 'POST', vigil.headers, { type: 'WEBHOOK', config: { name: 'worst', url: hook.url, template: WORST_TEMPLATE } });
    const service = await json(`${vigil.url}/v1/status-pages/services`, 'POST', vigil.headers, { name: 'API' });
    const page = await json(`${vigil.url}/v1/status-pages`, 'POST', vigil.headers, { name: 'Acme', url: 'acme-hostile', cards: [{ name: 'Core', services: [{ id: service.id }] }] });

    // Quiet baseline first.
    const quiet = await probes(vigil.url, tokens, 5);
    const end = Date.now() + SECONDS * 1000;
    const until = () => Date.now() > end;
    const [health, ping, renders, subs1, subs2] = await Promise.all([
      paced({ url: vigil.url, rate: PROBE_RATE, duration: SECONDS, connections: 4, path: () => '/healthz' }),
      paced({ url: vigil.url, rate: PROBE_RATE, duration: SECONDS, connections: 4, path: (i) => `/ping/${tokens[i % tokens.length]}` }),
      LOAD === 'subscriptions' ? { done: 0, failed: 0 } : loop(until, () => json(`${vigil.url}/v1/alert-channels/${channel.id}/test`, 'POST', vigil.headers)),
      LOAD === 'renders' ? { done: 0, failed: 0 } : loop(until, (i) => json(`${vigil.url}/v1/status-pages/${page.id}/subscriptions/bulk`, 'POST', vigil.headers, { subscriptions: [{ type: 'EMAIL', config: `a${i}@example.com` }] })),
      LOAD === 'renders' ? { done: 0, failed: 0 } : loop(until, (i) => json(`${vigil.url}/v1/status-pages/${page.id}/subscriptions/bulk`, 'POST', vigil.headers, { subscriptions: [{ type: 'EMAIL', config: `b${i}@example.com` }] })),
    ]);
    await new Promise((r) => setTimeout(r, 2000));
    return { quiet, health, ping, renders, subscriptions: subs1.done + subs2.done, failedSubscriptions: subs1.failed + subs2.failed, delivered: hook.received() };
  } finally {
    await vigil.stop();
    await hook.close();
  }
}

async function probes(url, tokens, seconds) {
  const [health, ping] = await Promise.all([
    paced({ url, rate: PROBE_RATE, duration: seconds, connections: 4, path: () => '/healthz' }),
    paced({ url, rate: PROBE_RATE, duration: seconds, connections: 4, path: (i) => `/ping/${tokens[i % tokens.length]}` }),
  ]);
  return { health, ping };
}

/** SLOW connections from many loopback addresses, each sending half its headers and then nothing. */
async function slowClients() {
  const vigil = await startVigil({ VIGIL_CONNECTIONS_PER_ADDRESS: '256', VIGIL_HEADERS_TIMEOUT_MS: '60000', VIGIL_REQUEST_TIMEOUT_MS: '60000' });
  const sockets = [];
  let refused = 0;
  try {
    const { port } = new URL(vigil.url);
    for (let i = 0; i < SLOW; i += 500) {
      const batch = Array.from({ length: Math.min(500, SLOW - i) }, (_, j) => {
        const n = i + j;
        const localAddress = `127.0.${1 + Math.floor(n / 200) % 250}.${1 + (n % 200)}`;
        return new Promise((resolve) => {
          const socket = net.connect({ host: '127.0.0.1', port: Number(port), localAddress }, () => {
            socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
            resolve(socket);
          });
          socket.on('error', () => {
            refused++;
            resolve(null);
          });
        });
      });
      for (const s of await Promise.all(batch)) if (s) sockets.push(s);
    }
    await new Promise((r) => setTimeout(r, 500));
    const open = sockets.filter((s) => !s.destroyed).length;
    const others = await paced({ url: vigil.url, rate: PROBE_RATE, duration: 5, connections: 4, path: () => '/healthz' });
    return { open, refused, others };
  } finally {
    for (const s of sockets) s.destroy();
    await vigil.stop();
  }
}

(async () => {
  console.log(`machine: ${machine()}`);
  const load = await hostileLoad();
  console.log(`quiet: /healthz p50 ${load.quiet.health.p50} p99 ${load.quiet.health.p99} ms; ping p50 ${load.quiet.ping.p50} p99 ${load.quiet.ping.p99} ms`);
  console.log(
    `| load: ${LOAD} (worst accepted template on every delivery, subscription writes), ${SECONDS} s | /healthz p50 ${load.health.p50} / p99 ${load.health.p99} / max ${load.health.max} ms (${load.health.non2xx} non-2xx); ` +
      `ping p50 ${load.ping.p50} / p99 ${load.ping.p99} / max ${load.ping.max} ms (${load.ping.non2xx} non-2xx) | ${load.renders.done} test deliveries requested (${load.delivered} rendered and received), ` +
      `${load.subscriptions} subscription writes (${load.failedSubscriptions} failed) |`,
  );
  if (SLOW > 0) {
    const slow = await slowClients();
    console.log(`| ${SLOW} slow clients (half-sent headers, 127.0.x.y) | ${slow.open} held open, ${slow.refused} refused at connect; /healthz from elsewhere p50 ${slow.others.p50} / p99 ${slow.others.p99} ms, ${slow.others.non2xx} non-2xx |`);
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
