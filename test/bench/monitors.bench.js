'use strict';
// Uptime monitors: N URL monitors at a 60 s frequency against a local target, probed by the embedded location.
// Reports the share of runs that started within 1 s of their schedule, runs lost, the API's RSS, and bytes on
// disk per stored run (growth of the SQLite files over the measured window / runs recorded in it).
// Run: npm run build && node test/bench/monitors.bench.js   (BENCH_MONITORS=1000, BENCH_SECONDS=180)
const http = require('node:http');
const { statSync, existsSync } = require('node:fs');
const { join } = require('node:path');
const { startVigil, machine } = require('./lib');

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 180);

function dbBytes(dir) {
  return ['vigil.db', 'vigil.db-wal'].map((f) => join(dir, f)).filter(existsSync).reduce((n, f) => n + statSync(f).size, 0);
}

async function results(vigil, id) {
  const entries = [];
  let nextId = null;
  do {
    const response = await fetch(`${vigil.url}/v2/check-results/${id}?limit=100${nextId ? `&nextId=${nextId}` : ''}`, { headers: vigil.headers });
    const page = await response.json();
    entries.push(...page.entries);
    nextId = page.nextId;
  } while (nextId);
  return entries;
}

async function main() {
  let hits = 0;
  const target = http.createServer((_req, res) => {
    hits++;
    res.end('ok');
  });
  await new Promise((r) => target.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${target.address().port}/`;
  const vigil = await startVigil({ VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true' });
  try {
    const ids = [];
    const createdAt = Date.now();
    for (let i = 0; i < MONITORS; i += 20) {
      const batch = Array.from({ length: Math.min(20, MONITORS - i) }, (_, j) =>
        fetch(`${vigil.url}/v1/checks/url`, { method: 'POST', headers: vigil.headers, body: JSON.stringify({ name: `bench ${i + j}`, frequency: 1, request: { url } }) }).then((r) => r.json()),
      );
      for (const m of await Promise.all(batch)) ids.push(m.id);
    }
    const createSeconds = (Date.now() - createdAt) / 1000;
    // The measured window starts once every monitor had its first round.
    await new Promise((r) => setTimeout(r, 5000));
    const startBytes = dbBytes(vigil.dataDir);
    const windowStart = Date.now();
    let maxRss = 0;
    const sampler = setInterval(() => (maxRss = Math.max(maxRss, vigil.rssMiB())), 1000);
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    clearInterval(sampler);
    const windowEnd = Date.now();
    const endBytes = dbBytes(vigil.dataDir);

    let runs = 0;
    let onTime = 0;
    let lost = 0;
    let inWindow = 0;
    const lags = [];
    for (let i = 0; i < ids.length; i += 20) {
      const pages = await Promise.all(ids.slice(i, i + 20).map((id) => results(vigil, id)));
      for (const entries of pages) {
        const finals = entries.filter((e) => e.resultType === 'FINAL').sort((a, b) => a.checkRunId - b.checkRunId);
        for (const e of finals) {
          runs++;
          const lag = Date.parse(e.startedAt) - e.checkRunId;
          lags.push(lag);
          if (lag <= 1000) onTime++;
          if (e.checkRunId >= windowStart && e.checkRunId < windowEnd) inWindow++;
        }
        // Rounds follow one another by exactly 60 s; a gap larger than that is a lost round.
        for (let k = 1; k < finals.length; k++) lost += Math.max(0, Math.round((finals[k].checkRunId - finals[k - 1].checkRunId) / 60_000) - 1);
        const last = finals[finals.length - 1];
        if (last && windowEnd - last.checkRunId > 61_000) lost += Math.floor((windowEnd - last.checkRunId) / 60_000) - 1;
      }
    }
    lags.sort((a, b) => a - b);
    const p = (q) => lags[Math.min(lags.length - 1, Math.ceil((q / 100) * lags.length) - 1)];
    console.log(`machine: ${machine()}`);
    console.log(`${MONITORS} URL monitors at 60 s, created in ${createSeconds.toFixed(1)} s, measured ${SECONDS} s; target saw ${hits} requests`);
    console.log(`runs recorded: ${runs}; started within 1 s of schedule: ${((onTime / runs) * 100).toFixed(3)}%; start lag p50 ${p(50)} ms, p99 ${p(99)} ms, max ${lags[lags.length - 1]} ms; lost rounds: ${lost}`);
    console.log(`API RSS max: ${maxRss} MiB; disk: ${endBytes - startBytes} bytes for ${inWindow} runs in the window = ${inWindow ? Math.round((endBytes - startBytes) / inWindow) : 'n/a'} bytes per run`);
  } finally {
    await vigil.stop();
    target.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
