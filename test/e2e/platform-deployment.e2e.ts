import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EsdbFaultServer } from '../../libs/testing/src/esdb-fault.server';
import { API_MAIN, startChildServer } from '../../libs/testing/src/child-server';
import { MongoFaultServer } from '../../libs/testing/src/mongo-fault.server';
import { silentServer } from '../../libs/testing/src/silent-server';

const DIST_WORKER = join(API_MAIN, '..', '..', '..', 'worker', 'src');

/** Runs a built entry point to its exit, for at most `ms`. */
function run(script: string, env: Record<string, string>, ms: number): Promise<{ code: number | null; output: string; elapsed: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, elapsed: Date.now() - started });
    });
  });
}

// Built processes start slowly on a loaded two-core runner (20 s and more was seen): jest's 30 s default is too short.
jest.setTimeout(120_000);

describe('deployment (built processes; needs npm run build)', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'vigil-deploy-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('the worker writes its health file while its stores answer, and the healthcheck reads it', async () => {
    const healthFile = join(dataDir, 'worker-health');
    const env = { VIGIL_DATA_DIR: dataDir, VIGIL_WORKER_HEALTH_FILE: healthFile };
    const healthcheck = () => spawnSync(process.execPath, [join(DIST_WORKER, 'healthcheck.js')], { env: { ...process.env, ...env }, encoding: 'utf8' });

    expect(healthcheck().status).toBe(1);
    const worker = spawn(process.execPath, [join(DIST_WORKER, 'main.js')], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: 'ignore' });
    try {
      let status: number | null = 1;
      for (let tries = 0; tries < 100 && status !== 0; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = healthcheck().status;
      }
      expect(status).toBe(0);
    } finally {
      worker.kill('SIGTERM');
      await new Promise((resolve) => worker.once('exit', resolve));
    }
    // A beat older than three intervals: the worker is hung or its stores are gone.
    writeFileSync(healthFile, String(Date.now() - 31_000));
    const stale = healthcheck();
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('s old');
  });

  it('does not hang starting against a MongoDB that never answers: exits within the deadline, naming the store', async () => {
    const mongo = await silentServer();
    const esdb = await EsdbFaultServer.start();
    try {
      const result = await run(
        API_MAIN,
        {
          VIGIL_DATA_DIR: dataDir,
          EVENTSTORE_URL: esdb.url.replace('esdb://', 'kurrentdb://'),
          MONGODB_URL: `mongodb://vigil:s3cret-password@127.0.0.1:${mongo.port},127.0.0.1:${mongo.port}/vigil?replicaSet=rs0`,
          VIGIL_STORE_TIMEOUT_MS: '1000',
        },
        60_000,
      );
      expect(result.code).toBe(1);
      // The process's own start is most of it on a loaded runner; without the deadline the driver's 30 s server selection would run out first.
      expect(result.elapsed).toBeLessThan(25_000);
      expect(result.output).toContain('The MongoDB read store is unavailable');
      expect(result.output).not.toContain('s3cret-password');
    } finally {
      await mongo.close();
      await esdb.close();
    }
  });

  it('answers 503 with Retry-After within the deadline, over HTTP, once MongoDB stops answering; never hangs', async () => {
    // Both stores answer at start (fault injectors speaking each client's protocol), then MongoDB stalls.
    const mongo = await MongoFaultServer.start();
    const esdb = await EsdbFaultServer.start();
    esdb.faults.read = 'empty';
    const server = await startChildServer({
      VIGIL_DATA_DIR: dataDir,
      EVENTSTORE_URL: esdb.url,
      MONGODB_URL: `mongodb://127.0.0.1:${mongo.port}/vigil?directConnection=true`,
      VIGIL_STORE_TIMEOUT_MS: '1000',
      VIGIL_DAEMON: 'off',
    });
    try {
      expect(mongo.answered.get('find')).toBeGreaterThan(0);
      mongo.stall();
      const requests: { path: string; headers: Record<string, string> }[] = [
        { path: '/v1/status-pages/incidents', headers: { authorization: 'Bearer vk_not_a_real_key_0000000000000000' } },
        { path: `/ping/${randomUUID()}`, headers: {} },
      ];
      for (const request of requests) {
        const started = Date.now();
        const response = await fetch(`${server.url}${request.path}`, { headers: request.headers, signal: AbortSignal.timeout(10_000) });
        const elapsed = Date.now() - started;
        expect({ path: request.path, status: response.status }).toEqual({ path: request.path, status: 503 });
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(await response.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
        // The deadline (1 s) and the watchdog's grace, never the socket timeout or a hang.
        expect(elapsed).toBeLessThan(3000);
      }
    } finally {
      await server.stop('SIGKILL');
      await mongo.close();
      await esdb.close();
    }
  });
});
