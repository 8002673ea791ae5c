'use strict';
// Issue 21 (first step): the cost of the pure schedule and maintenance-window maths the heartbeat decider
// and the watchdog will call per ping and per due check. CPU only, no server.
// Run: npm run build && node test/bench/schedules.bench.js
const { join } = require('node:path');
const { loadavg } = require('node:os');
const { machine } = require('./lib');

const DIST = join(__dirname, '..', '..', 'dist', 'libs');
const { scheduleTiming } = require(join(DIST, 'heartbeats/src/domain/schedule.js'));
const { activeAt } = require(join(DIST, 'maintenance/src/domain/window-occurrences.js'));

const CALLS = 20_000;
const BASE = Date.parse('2026-11-25T12:00:00Z');

/** Mean µs per call over CALLS calls, after a warm-up; `fn` gets a minute-spaced instant. */
function measure(fn) {
  for (let i = 0; i < 2000; i++) fn(new Date(BASE + i * 60_000));
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) fn(new Date(BASE + i * 60_000));
  return Number(process.hrtime.bigint() - started) / 1000 / CALLS;
}

const rows = [];
for (const [expression, timezone] of [['*/15 * * * *', 'UTC'], ['30 2 * * *', 'Europe/Berlin'], ['0 9 * * 1-5', 'America/New_York']]) {
  const schedule = { expression, timezone };
  rows.push([`scheduleTiming after a ping, ${expression} ${timezone}`, measure((at) => scheduleTiming(schedule, 3_600_000, at, true))]);
  rows.push([`scheduleTiming after a restart, ${expression} ${timezone}`, measure((at) => scheduleTiming(schedule, 3_600_000, at, false))]);
}
const daily = { startsAt: '2026-03-01T01:00:00.000Z', endsAt: '2026-03-01T03:00:00.000Z', repeatInterval: 1, repeatUnit: 'DAY', repeatEndsAt: null, timezone: 'Europe/Berlin' };
rows.push(['activeAt, daily window in Europe/Berlin', measure((at) => activeAt(daily, at))]);
const oneOff = { ...daily, repeatInterval: null, repeatUnit: null };
rows.push(['activeAt, one-off window', measure((at) => activeAt(oneOff, at))]);

console.log(`${machine()}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const [label, us] of rows) console.log(`${label.padEnd(62)} ${us.toFixed(1).padStart(7)} µs/call`);
