import { readFileSync } from 'node:fs';
import { loadConfigOrExit } from '../../../libs/platform/src/config';
import { STALE_MS } from './worker-health';

/** The worker container's HEALTHCHECK: exit 0 when the worker wrote its health file recently (worker-health.ts). */
function main(): number {
  const { workerHealthFile } = loadConfigOrExit();
  try {
    const written = Number(readFileSync(workerHealthFile, 'utf8'));
    const age = Date.now() - written;
    if (Number.isFinite(written) && age >= 0 && age < STALE_MS) return 0;
    process.stderr.write(`worker health file is ${Math.round(age / 1000)} s old\n`);
  } catch {
    process.stderr.write(`worker health file ${workerHealthFile} is missing\n`);
  }
  return 1;
}

process.exit(main());
