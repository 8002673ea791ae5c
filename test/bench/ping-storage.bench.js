'use strict';
// What a ping costs without HTTP: the built API in this process on a temp data directory, BENCH_CHECKS checks
// (1,000), then rounds of BENCH_PINGS pings (50,000) as the ping route makes them (token lookup, then the Ping
// command through the command bus to the heartbeat handler: group commit, inline projections, fsync), BENCH_CONCURRENCY (50) at once, after a 10,000-ping warm-up.
// Prints pings/s and this process's CPU per ping (user, system): beside `heartbeats.bench.js ping`, the
// difference is what HTTP adds.
// Run: npm run build && node test/bench/ping-storage.bench.js
const { join } = require('node:path');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { createChecks, machine, ROOT } = require('./lib');

const DIST = join(ROOT, 'dist');
const KEY = 'bench-key-0123456789abcdef';
const CHECKS = Number(process.env.BENCH_CHECKS ?? 1000);
const PINGS = Number(process.env.BENCH_PINGS ?? 50_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-ping-storage-'));
  const { loadConfig } = require(join(DIST, 'libs/platform/src/config'));
  const { createApp } = require(join(DIST, 'apps/api/src/create-app'));
  const { CommandBus } = require('@nestjs/cqrs');
  const { PingTargets } = require(join(DIST, 'libs/heartbeats/src/read/ping-targets'));
  const { pingCommand } = require(join(DIST, 'libs/heartbeats/src/http/ping-request'));
  const { RunHeartbeatCommand } = require(join(DIST, 'libs/heartbeats/src/write/heartbeat.handler'));
  const config = loadConfig({
    VIGIL_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    VIGIL_RATE_LIMIT_PER_MINUTE: '1000000000',
    VIGIL_PING_RATE_BURST: '0',
    VIGIL_BOOTSTRAP_API_KEY: KEY,
    VIGIL_BOOTSTRAP_ACCOUNT_ID: '01900000-0000-7000-8000-00000000b5e7',
  });
  const app = await createApp({ config });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const tokens = await createChecks(url, CHECKS, { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' });
    const targets = app.get(PingTargets);
    const commands = app.get(CommandBus);
    const pings = async (count) => {
      let next = 0;
      const worker = async () => {
        while (next < count) {
          const i = next++;
          const timer = await targets.timerOfToken(tokens[i % tokens.length]);
          const command = pingCommand({ source: null, userAgent: 'curl/8.5.0' }, Date.now());
          await commands.execute(new RunHeartbeatCommand(timer.id, command, { accountId: timer.accountId, requestId: `bench-${i}` }, timer));
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    };
    await pings(10_000);
    console.log(machine());
    console.log('| round | pings/s | user µs per ping | system µs per ping |');
    console.log('|---|---|---|---|');
    for (let round = 1; round <= ROUNDS; round++) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      await pings(PINGS);
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      console.log(`| ${round} | ${Math.round(PINGS / seconds)} | ${(used.user / PINGS).toFixed(0)} | ${(used.system / PINGS).toFixed(0)} |`);
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
