'use strict';
// Memory of a process making EventStoreDB reads that stop early (what the worker does several times a
// second), against the fault server (libs/testing) in a child process on 127.0.0.1.
// Usage: node test/bench/esdb-early-reads.bench.js [minutes=15] [reads per second=100] [--over-send]
// --over-send: the server sends 200 events whatever a read asked for, so every stopped read is cancelled.
const { fork } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');
const { machine } = require('./lib');

// The adapter and the fault server are loaded from their TypeScript sources (libs/testing is not built).
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};

async function serve() {
  const { EsdbFaultServer } = require('../../libs/testing/src/esdb-fault.server.ts');
  const server = await EsdbFaultServer.start({ overSend: process.argv.includes('--over-send') });
  process.send({ url: server.url });
  setInterval(() => process.send({ open: server.open.size, reads: server.readsStarted }), 10_000).unref();
}

async function measure() {
  const [minutes = 15, perSecond = 100] = process.argv.slice(2).filter((arg) => !arg.startsWith('--')).map(Number);
  const child = fork(__filename, ['serve', ...process.argv.slice(2).filter((arg) => arg.startsWith('--'))]);
  let serverOpen = 0;
  const url = await new Promise((resolve) =>
    child.on('message', (message) => {
      if (message.url) resolve(message.url);
      if (message.open !== undefined) serverOpen = message.open;
    }),
  );
  const { EventStoreDbEventStore } = require('../../libs/event-store/src/eventstoredb.event-store.ts');
  const store = new EventStoreDbEventStore(url, { deadlineMs: 5000 });
  const mib = () => Math.round((process.memoryUsage().rss / 2 ** 20) * 10) / 10;
  const samples = [];
  const started = Date.now();
  let reads = 0;
  const errors = {};
  let nextSample = started;
  console.log(`machine: ${machine()}; ${minutes} min at ${perSecond} early-stopped reads/s${process.argv.includes('--over-send') ? ', server over-sending' : ''}`);
  while (Date.now() - started < minutes * 60_000) {
    const tick = Date.now();
    for (let i = 0; i < perSecond / 10; i++) {
      try {
        switch (reads++ % 3) {
          case 0:
            await store.headPosition();
            break;
          case 1:
            await store.readAll({ maxCount: 5 });
            break;
          default:
            await store.streamRevision('heartbeat-fault');
        }
      } catch (error) {
        // A dropped HTTP/2 session fails the read under way as unavailable; the next one reconnects.
        errors[error.name] = (errors[error.name] ?? 0) + 1;
      }
    }
    if (Date.now() >= nextSample) {
      const sample = { minute: Math.round((Date.now() - started) / 60_000), reads, rssMiB: mib(), heapMiB: Math.round(process.memoryUsage().heapUsed / 2 ** 20), serverOpenCalls: serverOpen, errors: { ...errors }, handles: process.getActiveResourcesInfo().length };
      if (process.env.BENCH_RESOURCES) sample.resources = process.getActiveResourcesInfo().reduce((counts, type) => ({ ...counts, [type]: (counts[type] ?? 0) + 1 }), {});
      samples.push(sample);
      console.log(JSON.stringify(sample));
      nextSample += 60_000;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - (Date.now() - tick))));
  }
  const closing = Date.now();
  await store.close();
  const rss = samples.map((sample) => sample.rssMiB);
  const afterWarmup = rss.slice(Math.min(2, rss.length - 1));
  console.log(
    JSON.stringify({
      reads,
      minutes,
      errors,
      rssMiB: { first: rss[0], min: Math.min(...afterWarmup), max: Math.max(...afterWarmup), last: rss[rss.length - 1] },
      closeMs: Date.now() - closing,
    }),
  );
  child.kill();
}

(process.argv[2] === 'serve' ? serve() : measure()).catch((error) => {
  console.error(error);
  process.exit(1);
});
