import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createApp } from '../../apps/api/src/create-app';
import { createAccount, createApiKey } from '../../libs/testing/src/test-server';
import { loadConfig } from '../../libs/platform/src/config';
import { createLogger } from '../../libs/platform/src/logger';
import { agentPath, askAgent } from './agent-stream-client';

/**
 * The streamed answer leaves Fastify's lifecycle intact: one request log line per stream (also when
 * the client goes away), the rate limit, and the error filter for everything before the stream.
 */
describe('AI agent stream inside the HTTP conventions', () => {
  const lines: Record<string, unknown>[] = [];
  let app: NestFastifyApplication;
  let url: string;
  let dataDir: string;
  let accountId: string;
  let key: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vigil-agent-http-'));
    const config = loadConfig({ VIGIL_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', VIGIL_RATE_LIMIT_PER_MINUTE: '8' });
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    app = await createApp({ config, logger: createLogger('info', sink) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    accountId = await createAccount(app, 'Logged');
    ({ apiKey: key } = await createApiKey(app, [accountId], 'READ_WRITE', 'test'));
  });
  afterAll(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const requestLines = (reqId: string) => lines.filter((line) => line.msg === 'request' && line.reqId === reqId);

  async function until(condition: () => boolean) {
    // The line is written once the stream ends, which on a loaded runner can be seconds later.
    const deadline = Date.now() + 20_000;
    while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }

  it('writes one request log line for a finished stream, with account and key', async () => {
    const answer = await askAgent(url, accountId, key, 'What is down right now?', { headers: { 'x-request-id': 'log-me-1' } });
    expect(answer.status).toBe(200);
    await until(() => requestLines('log-me-1').length > 0);
    expect(requestLines('log-me-1')).toEqual([
      expect.objectContaining({ method: 'POST', path: agentPath(accountId), status: 200, accountId, keyId: expect.any(String) }),
    ]);
  });

  it('logs a refused request through the error filter, and a stream whose client leaves at the first byte, once each', async () => {
    const refused = await askAgent(url, accountId, key, [], { body: { messages: [] }, headers: { 'x-request-id': 'log-me-2' } });
    expect(refused.status).toBe(400);
    await until(() => requestLines('log-me-2').length > 0);
    expect(requestLines('log-me-2')).toEqual([expect.objectContaining({ status: 400 })]);

    // A client that leaves as soon as the first bytes arrive.
    const body = JSON.stringify({ messages: [{ role: 'user', content: 'Which incidents are open?' }] });
    await new Promise<void>((resolve, reject) => {
      const request = httpRequest(url + agentPath(accountId), {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': 'log-me-3' },
      });
      request.on('response', (response) => {
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(error)));
      request.end(body);
    });
    await until(() => requestLines('log-me-3').length > 0);
    expect(requestLines('log-me-3')).toEqual([expect.objectContaining({ status: 200, accountId })]);
  });

  it('counts streams against the rate limit: 429 in the standard shape, before any streaming', async () => {
    let last = await askAgent(url, accountId, key, 'What is down?');
    for (let i = 0; i < 10 && last.status !== 429; i++) last = await askAgent(url, accountId, key, 'What is down?');
    expect(last.status).toBe(429);
    expect(last.headers.get('content-type')).toMatch(/^application\/json/);
    expect(last.headers.get('retry-after')).toEqual(expect.any(String));
    expect(last.json).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
  });

  it('is described in the OpenAPI document: body schema, both response types', async () => {
    const document: any = await fetch(`${url}/openapi.json`).then((r) => r.json());
    const operation = document.paths['/accounts/{accountId}/ai/agents/stream'].post;
    expect(operation.parameters.filter((p: { in: string }) => p.in === 'path')).toEqual([expect.objectContaining({ name: 'accountId', in: 'path', required: true })]);
    expect(operation.requestBody.content['application/json'].schema).toMatchObject({ required: ['messages'], properties: { messages: { minItems: 1, maxItems: 50 } } });
    expect(Object.keys(operation.responses['200'].content)).toEqual(['text/event-stream', 'text/plain']);
  });
});
