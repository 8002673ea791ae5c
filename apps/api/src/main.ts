import 'reflect-metadata';
import { loadConfigOrExit } from '../../../libs/platform/src/config';
import { createLogger } from '../../../libs/platform/src/logger';
import { createApp } from './create-app';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  const app = await createApp({ config, logger });
  await app.listen({ port: config.port, host: config.host });
  const mode = config.eventStoreUrl ? 'production (EventStoreDB + MongoDB)' : `embedded (${config.sqliteFile})`;
  logger.info({ url: await app.getUrl(), mode, daemon: config.daemon }, 'Vigil API listening');
}

main().catch((error) => {
  process.stderr.write(`Vigil failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
