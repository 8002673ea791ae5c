'use strict';
// What a ping costs without HTTP: the built API in this process on a temp data directory, BENCH_CHECKS checks
// (1,000), then rounds of BENCH_PINGS pings (50,000) as the ping route makes them (token lookup, then the Ping
// command through the command bus to the heartbeat handler: group commit, inline projections, fsync), BENCH_CONCURRENCY (50) at once, after a 10,000-ping warm-up.
// Prints pings/s and this process's CPU per ping (user, system): beside `heartbeats.bench.js ping`, the
// difference is what HTTP adds.
// Run: npm run build && node test/bench/ping-storage.bench.js
const { join } = require('node:path');
const { BENCH_KEY, createChecks, cpuRounds, startInProcessApi, ROOT } = require('./lib');

const DIST = join(ROOT, 'dist');
const CHECKS = Number(process.env.BENCH_CHECKS ?? 1000);
const PINGS = Number(process.env.BENCH_PINGS ?? 50_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function main() {
  const { CommandBus } = require('@nestjs/cqrs');
  const { PingTargets } = require(join(DIST, 'libs/heartbeats/src/read/ping-targets'));
  const { pingCommand } = require(join(DIST, 'libs/heartbeats/src/http/ping-request'));
  const { RunHeartbeatCommand } = require(join(DIST, 'libs/heartbeats/src/write/heartbeat.handler'));
  const { app, url, close } = await startInProcessApi('ping-storage', { VIGIL_PING_RATE_BURST: '0' });
  try {
    const tokens = await createChecks(url, CHECKS, { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' });
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
    await cpuRounds('ping', PINGS, ROUNDS, () => pings(PINGS));
  } finally {
    await close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
