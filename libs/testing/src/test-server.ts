import { INestApplicationContext } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@nestjs/cqrs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from '../../core/src/clock';
import { Role } from '../../http/src/account-context';
import { ID_GENERATOR, IdGenerator } from '../../core/src/ids';
import { newApiKey, RunAccountCommand, RunApiKeyCommand } from '../../accounts/src/accounts.api';
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

export interface CreatedApiKey {
  id: string;
  apiKey: string;
  accountIds: string[];
  role: Role;
  name: string | null;
}

const TEST_ACTOR = { accountId: null, keyName: 'test' };

/** Creates an account through the accounts context's command, as the CLI does; answers its id. */
export async function createAccount(app: INestApplicationContext, name: string): Promise<string> {
  const id = app.get<IdGenerator>(ID_GENERATOR).next();
  await app.get(CommandBus).execute(new RunAccountCommand({ type: 'CreateAccount', id, name }, TEST_ACTOR));
  return id;
}

/** Creates a key for the accounts, as the CLI does; answers it with its value. */
export async function createApiKey(app: INestApplicationContext, accountIds: string[], role: Role, name: string | null): Promise<CreatedApiKey> {
  const { command, apiKey } = newApiKey(app.get<IdGenerator>(ID_GENERATOR).next(), accountIds, role, name);
  await app.get(CommandBus).execute(new RunApiKeyCommand(command, TEST_ACTOR));
  return { id: command.key.id, apiKey, accountIds, role, name };
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

  return {
    url,
    app,
    config,
    dataDir,
    http: new HttpClient(url),
    async account(name = 'Test account') {
      const id = await createAccount(app, name);
      const key = await createApiKey(app, [id], 'ADMIN', 'test');
      return {
        id,
        key: key.apiKey,
        keyId: key.id,
        newKey: (role: Role, extra: string[] = []) => createApiKey(app, [id, ...extra], role, `test ${role}`),
      };
    },
    async close() {
      await app.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
