import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, runCli, startChildServer } from '../../libs/testing/src/child-server';
import { startTestServer } from '../../libs/testing/src/test-server';

/** The first hour of a newcomer: the CLI, the first start, the root URL, the bootstrap key, stopping. Needs `npm run build`. */
const ROOT = join(__dirname, '..', '..');
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-first-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

// Built processes start slowly on a loaded two-core runner (20 s and more was seen): jest's 30 s default is too short.
jest.setTimeout(120_000);

const STRONG_KEY = 'Qm9vdHN0cmFwS2V5Rm9yVGVzdHMxMjM0NTY3ODkw';

describe('the CLI says which store it opened and never creates an empty one elsewhere', () => {
  it('refuses a data dir with no database, creating nothing; accounts create starts one; accounts list lists it', () => {
    const dataDir = join(tempDir(), 'not-here');
    const env = { VIGIL_DATA_DIR: dataDir };
    const refused = runCli(['keys', 'list', '--account', '01900000-0000-7000-8000-000000000001'], env);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`No Vigil database at ${join(dataDir, 'vigil.db')}`);
    expect(refused.stderr).toContain('VIGIL_DATA_DIR');
    expect(refused.stdout).toBe('');
    expect(existsSync(dataDir)).toBe(false);
    expect(runCli(['accounts', 'list'], env).status).toBe(1);
    expect(existsSync(dataDir)).toBe(false);

    const created = runCli(['accounts', 'create', '--name', 'First', '--json'], env);
    expect(created.status).toBe(0);
    expect(created.stderr).toBe(`Vigil store: embedded SQLite ${join(dataDir, 'vigil.db')}\n`);
    const { id } = JSON.parse(created.stdout);

    const listed = runCli(['accounts', 'list', '--json'], env);
    expect(listed.status).toBe(0);
    expect(listed.stderr).toContain(`Vigil store: embedded SQLite ${join(dataDir, 'vigil.db')}`);
    expect(JSON.parse(listed.stdout)).toEqual([{ id, name: 'First', created_at: expect.any(String) }]);
    const text = runCli(['accounts', 'list'], env);
    expect(text.stdout).toContain(`${id}`);
    expect(text.stdout).toContain('First');
  });
});

describe('the first start', () => {
  it('with no account, logs how to get in', async () => {
    const server = await startChildServer({ VIGIL_DATA_DIR: tempDir() });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(server.output()).toContain('No account exists yet');
      expect(server.output()).toContain('VIGIL_BOOTSTRAP_API_KEY');
      expect(server.output()).toContain('accounts create');
    } finally {
      await server.stop();
    }
  });

  it('GET / leads to the API documentation instead of a 404', async () => {
    const server = await startTestServer();
    try {
      const root = await fetch(`${server.url}/`, { redirect: 'manual' });
      expect(root.status).toBe(302);
      expect(root.headers.get('location')).toBe('/console');
      const docs = await fetch(`${server.url}/`);
      expect(docs.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it.each(['change-me-to-a-long-secret', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'short-key-0123456789'])('refuses the bootstrap key %s with a message', async (key) => {
    const failed = startChildServer({ VIGIL_DATA_DIR: tempDir(), VIGIL_BOOTSTRAP_API_KEY: key });
    await expect(failed).rejects.toThrow(/VIGIL_BOOTSTRAP_API_KEY is too weak or a placeholder/);
    await expect(failed).rejects.not.toThrow(new RegExp(key));
  });

  it('accepts a long random bootstrap key', async () => {
    const server = await startChildServer({ VIGIL_DATA_DIR: tempDir(), VIGIL_BOOTSTRAP_API_KEY: STRONG_KEY });
    try {
      expect((await fetch(`${server.url}/v1/checks`, { headers: { authorization: `Bearer ${STRONG_KEY}` } })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe('npm start', () => {
  it('stops the server on SIGTERM (no process left holding the port) and logs the shutdown', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { ...process.env, VIGIL_DATA_DIR: tempDir(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout!.on('data', (d) => (output += d));
    npm.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
    try {
      const deadline = Date.now() + 90_000;
      while (!output.includes('Vigil API listening')) {
        if (npm.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not start: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } catch (error) {
      npm.kill('SIGKILL');
      throw error;
    }
    npm.kill('SIGTERM');
    await exited;
    // Whatever npm did, the server's port is free once it has gone: nothing answers there. npm may exit before
    // the server has finished its shutdown, which on a loaded runner takes more than a moment: looked at until 20 s.
    const answers = () =>
      new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      });
    const goneBy = Date.now() + 20_000;
    let answered = await answers();
    while ((answered || !output.includes('Vigil API stopped')) && Date.now() < goneBy) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answered = await answers();
    }
    expect(answered).toBe(false);
    expect(output).toContain('Vigil API stopped');
    expect(output).toContain('SIGTERM');
  });
});
