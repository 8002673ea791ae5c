'use strict';
// Which of Vigil's own files a recorded ping executes beyond those every request runs (the global hooks):
// V8 precise coverage (call counts) around one GET /ping/{token} after a warm-up, less the files a request
// to an unknown path runs; the built API in this process, on a temp data directory. VIGIL_DAEMON=off: the
// projection daemon and the processors poll the log every 200 ms and run after every commit, not on the ping's
// path; with them on, whichever window a poll fell in gained or lost their files.
// Run: npm run build && node test/bench/ping-path.js
const { join, relative } = require('node:path');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const inspector = require('node:inspector');
const { ROOT } = require('./lib');

const DIST = join(ROOT, 'dist');
const KEY = 'path-key-0123456789abcdef';

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-path-'));
  const { loadConfig } = require(join(DIST, 'libs/platform/src/config'));
  const { createApp } = require(join(DIST, 'apps/api/src/create-app'));
  const config = loadConfig({ VIGIL_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', VIGIL_DAEMON: 'off', VIGIL_BOOTSTRAP_API_KEY: KEY, VIGIL_BOOTSTRAP_ACCOUNT_ID: '01900000-0000-7000-8000-00000000b5e7' });
  const app = await createApp({ config });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const created = await fetch(`${url}/v1/checks/heartbeat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'path', heartbeat: { period: 1, periodUnit: 'hours', grace: 1, graceUnit: 'hours' } }),
  }).then((r) => r.json());
  const ping = `${url}/ping/${created.heartbeat.pingToken}`;
  for (let i = 0; i < 3; i++) await (await fetch(ping)).text();
  const session = new inspector.Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
  await post('Profiler.enable');
  await post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  for (let i = 0; i < 2; i++) await (await fetch(ping)).text();
  // Files whose functions ran during `request` (taking coverage resets the counters).
  const filesOf = async (request) => {
    await post('Profiler.takePreciseCoverage');
    const answer = await request();
    await answer.text();
    const { result } = await post('Profiler.takePreciseCoverage');
    const files = result
      .filter((script) => script.url.startsWith(`file://${DIST}/`) && script.functions.some((f) => f.ranges[0].count > 0))
      .map((script) => relative(DIST, script.url.slice('file://'.length)).replace(/\.js$/, ''));
    return { status: answer.status, files: new Set(files) };
  };
  await (await fetch(`${url}/no-such-path`)).text();
  const every = await filesOf(() => fetch(`${url}/no-such-path`));
  const pinged = await filesOf(() => fetch(ping));
  const own = [...pinged.files].filter((file) => !every.files.has(file)).sort();
  console.log(`ping: ${pinged.status}; every request (${every.status}): ${[...every.files].sort().join(', ')}`);
  console.log(`${own.length} files of the ping's own path:\n${own.join('\n')}`);
  session.disconnect();
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
