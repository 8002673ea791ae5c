import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { ConfigError } from '../../../libs/platform/src/config';
import { createLogger } from '../../../libs/platform/src/logger';
import { loadRunnerConfig, RunnerConfig } from '../../../libs/platform/src/runner-config';
import { Runner } from './runner';

const STATS_EVERY_MS = 60_000;
const SHUTDOWN_MS = 5_000;

/** A runner: probes its location's monitors for a Vigil API elsewhere (docs/operations.md, "Runners"). */
function main(): void {
  let config: RunnerConfig;
  try {
    config = loadRunnerConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  const id = `${process.env.HOSTNAME?.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40) || 'runner'}-${randomBytes(6).toString('hex')}`;
  const runner = new Runner(config, id, logger, (error) => {
    logger.error({ err: error }, error.message);
    process.exitCode = 3;
  });
  runner.start();
  const stats = setInterval(() => logger.info({ ...runner.stats, rssMiB: Math.round(process.memoryUsage().rss / 1048576) }, 'runner stats'), STATS_EVERY_MS);
  stats.unref();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    // Probes in flight are abandoned: what was measured is sent (at most 5 s) and the process exits.
    process.once(signal, () => {
      clearInterval(stats);
      void runner.shutdown(SHUTDOWN_MS).finally(() => {
        logger.info({ ...runner.stats }, 'Vigil runner stopped');
        process.exit();
      });
    });
  }
  logger.info({ runner: id, location: config.location, api: config.apiUrl }, 'Vigil runner running');
}

main();
