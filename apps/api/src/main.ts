import 'reflect-metadata';
import { ConfigError, loadConfig } from '../../../libs/platform/src/config';
import { createLogger } from '../../../libs/platform/src/logger';
import { createApp } from './create-app';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
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
