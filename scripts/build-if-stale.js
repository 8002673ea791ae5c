#!/usr/bin/env node
// Builds dist/ when it is missing or older than any TypeScript source, so `npm start` works on a fresh clone.
const { existsSync, readdirSync, statSync, utimesSync } = require('node:fs');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');

const root = join(__dirname, '..');
const marker = join(root, 'dist', 'apps', 'api', 'src', 'main.js');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const stale = !existsSync(marker) || Math.max(newestSource(join(root, 'apps')), newestSource(join(root, 'libs'))) > statSync(marker).mtimeMs;
if (stale) {
  if (!process.argv.includes('--quiet')) process.stderr.write('Building Vigil…\n');
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
  // An incremental build may leave main.js untouched; mark the build as fresh.
  const now = new Date();
  utimesSync(marker, now, now);
}
