import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@nestjs/cqrs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from '../../core/src/clock';
import { Role } from '../../http/src/account-context';
import { CreateAccountCommand } from '../../accounts/src/write/create-account.command';
import { CreateApiKeyCommand, CreatedApiKey } from '../../accounts/src/write/create-api-key.command';
import { loadConfig, VigilConfig } from '../../platform/src/config';
import { PlatformOptions } from '../../platform/src/platform.options';
import { createApp } from '../../../apps/api/src/create-app';
import { HttpClient } from './http-client';

export interface TestServer {
  url: string;
  app: NestFastifyApplication;
  config: VigilConfig;
  dataDir: string;
  http: HttpClient;
  /** Creates an account and a key for it, through the same commands the CLI uses. */
  account(name?: string): Promise<TestAccount>;
  close(): Promise<void>;
}

export interface TestAccount {
  id: string;
  key: string;
  keyId: string;
  /** Another key of this account. */
  newKey(role: Role, extraAccounts?: string[]): Promise<CreatedApiKey>;
}

export interface TestServerOptions {
  clock?: Clock;
  env?: Record<string, string>;
  dataDir?: string;
  /** Stores assembled by the test (PlatformOptions.openStores); default: the configured ones. */
  openStores?: PlatformOptions['openStores'];
}

/** The real server on a fresh temp SQLite file, listening on 127.0.0.1 at a free port. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'vigil-test-'));
  // Every test client is 127.0.0.1: the per-address budgets apply where a test sets them.
  const perAddress = { VIGIL_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000', VIGIL_RATE_LIMIT_PUBLIC_PER_MINUTE: '1000000' };
  const config = loadConfig({ VIGIL_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...perAddress, ...options.env });
  const app = await createApp({ config, clock: options.clock, openStores: options.openStores });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const commands = app.get(CommandBus);
  const actor = { accountId: null, keyName: 'test' };

  return {
    url,
    app,
    config,
    dataDir,
    http: new HttpClient(url),
    async account(name = 'Test account') {
      const { id } = await commands.execute<CreateAccountCommand, { id: string }>(new CreateAccountCommand(name, undefined, actor));
      const key = await commands.execute<CreateApiKeyCommand, CreatedApiKey>(new CreateApiKeyCommand([id], 'ADMIN', 'test', actor));
      return {
        id,
        key: key.apiKey,
        keyId: key.id,
        newKey: (role: Role, extra: string[] = []) =>
          commands.execute<CreateApiKeyCommand, CreatedApiKey>(new CreateApiKeyCommand([id, ...extra], role, `test ${role}`, actor)),
      };
    },
    async close() {
      await app.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
