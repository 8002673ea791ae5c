import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EsdbFaultServer } from '../../libs/testing/src/esdb-fault.server';
import { API_MAIN } from '../../libs/testing/src/child-server';
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
        20_000,
      );
      expect(result.code).toBe(1);
      expect(result.elapsed).toBeLessThan(10_000);
      expect(result.output).toContain('The MongoDB read store is unavailable');
      expect(result.output).not.toContain('s3cret-password');
    } finally {
      await mongo.close();
      await esdb.close();
    }
  });
});
