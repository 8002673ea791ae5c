import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfigOrExit } from '../../../libs/platform/src/config';
import { createLogger, NestPinoLogger } from '../../../libs/platform/src/logger';
import { HeadlessModule } from '../../api/src/contexts';
import { EVENT_STORE } from '../../../libs/event-store/src/event-store.port';
import { READ_STORE } from '../../../libs/read-store/src/read-store.port';
import { startWorkerHealth } from './worker-health';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  const app = await NestFactory.createApplicationContext(HeadlessModule.forRoot({ config, logger }, true), { logger: new NestPinoLogger(logger) });
  app.enableShutdownHooks();
  const stopHealth = startWorkerHealth(config.workerHealthFile, app.get(EVENT_STORE), app.get(READ_STORE), (error) =>
    logger.warn({ err: error }, 'worker health check failed: a store did not answer'),
  );
  process.once('SIGTERM', stopHealth);
  logger.info({ mode: config.eventStoreUrl ? 'production' : 'embedded' }, 'Vigil worker running');
}

main().catch((error) => {
  process.stderr.write(`Vigil worker failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
