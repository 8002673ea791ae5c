#!/usr/bin/env node
'use strict';
// Runs the suites that need the real stores (EVENTSTORE_URL, MONGODB_URL), one file at a time and in band,
// and fails unless every test each file declares ran and passed: a suite that skips, or declares nothing,
// fails the step instead of passing it silently.
//   node .ci/store-suites.js <test file>...
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const files = process.argv.slice(2);
if (files.length === 0) fail('no test file given');
for (const name of ['EVENTSTORE_URL', 'MONGODB_URL']) if (!process.env[name]) fail(`${name} is not set`);

const jest = require.resolve('jest/bin/jest');
const dir = mkdtempSync(join(tmpdir(), 'store-suites-'));
const rows = [];
try {
  for (const [i, file] of files.entries()) {
    // A name pattern no test matches: every test the file declares is counted as skipped, none runs.
    const declared = run(file, join(dir, `declared-${i}.json`), ['--testNamePattern', '^(?!)'], 'ignore');
    const expected = declared.numTotalTests;
    const ran = run(file, join(dir, `ran-${i}.json`), [], 'inherit');
    const skipped = ran.numPendingTests + ran.numTodoTests;
    const ok = expected > 0 && ran.success && ran.numFailedTests === 0 && skipped === 0 && ran.numPassedTests === expected;
    rows.push({ file, expected, passed: ran.numPassedTests, failed: ran.numFailedTests, skipped, ok });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log('\nstore suites:');
for (const row of rows) {
  console.log(`  ${row.ok ? 'ok  ' : 'FAIL'} ${row.file}: expected ${row.expected}, passed ${row.passed}, failed ${row.failed}, skipped ${row.skipped}`);
}
const total = (key) => rows.reduce((sum, row) => sum + row[key], 0);
console.log(`store suites: ${total('passed')} passed, ${total('failed')} failed, ${total('skipped')} skipped`);
if (rows.some((row) => !row.ok)) fail('a store suite did not run every test it declares, or one failed');

function run(file, outputFile, extra, stdio) {
  const result = spawnSync(process.execPath, [jest, '--ci', '--runInBand', '--json', '--outputFile', outputFile, ...extra, '--', file], { stdio: ['ignore', stdio, stdio] });
  let report;
  try {
    report = JSON.parse(readFileSync(outputFile, 'utf8'));
  } catch {
    fail(`jest wrote no report for ${file} (exit ${result.status}, signal ${result.signal})`);
  }
  if (report.numTotalTestSuites !== 1) fail(`${file}: jest found ${report.numTotalTestSuites} test files, expected exactly one`);
  return report;
}

function fail(message) {
  console.error(`store suites: ${message}`);
  process.exit(1);
}
