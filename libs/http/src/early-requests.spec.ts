import Fastify from 'fastify';
import { EarlyRequests } from './early-requests';

describe('early requests', () => {
  it('gives Fastify a server with the timeouts it would have set itself', async () => {
    const plain = Fastify();
    const early = Fastify({ serverFactory: new EarlyRequests().serverFactory });
    expect(early.server.keepAliveTimeout).toBe(plain.server.keepAliveTimeout);
    expect(early.server.requestTimeout).toBe(plain.server.requestTimeout);
    expect(early.server.timeout).toBe(plain.server.timeout);

    const tuned = Fastify({ serverFactory: new EarlyRequests().serverFactory, keepAliveTimeout: 5000, connectionTimeout: 1234, maxRequestsPerSocket: 3 });
    expect(tuned.server.keepAliveTimeout).toBe(5000);
    expect(tuned.server.timeout).toBe(1234);
    expect(tuned.server.maxRequestsPerSocket).toBe(3);
    await Promise.all([plain.close(), early.close(), tuned.close()]);
  });

  it('answers what a handler claims, hands the rest to Fastify, and claims nothing once closing', async () => {
    const requests = new EarlyRequests();
    requests.add((request, response) => {
      if (request.url !== '/early') return false;
      response.end('early');
      return true;
    });
    const app = Fastify({ serverFactory: requests.serverFactory });
    app.get('/early', async () => 'fastify');
    app.get('/other', async () => 'fastify');
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const text = async (path: string) => (await fetch(url + path)).text();

    expect(await text('/early')).toBe('early');
    expect(await text('/other')).toBe('fastify');
    requests.closing();
    expect(await text('/early')).toBe('fastify');
    await app.close();
  });

  it('leaves a request whose handler throws before answering to Fastify', async () => {
    const requests = new EarlyRequests();
    requests.add(() => {
      throw new Error('broken handler');
    });
    const app = Fastify({ serverFactory: requests.serverFactory });
    app.get('/thing', async () => 'fastify');
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(url + '/thing');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('fastify');
    await app.close();
  });

  it('reports a handler that threw', async () => {
    const errors: unknown[] = [];
    const requests = new EarlyRequests((error) => errors.push(error));
    requests.add(() => {
      throw new Error('broken handler');
    });
    const app = Fastify({ serverFactory: requests.serverFactory });
    app.get('/thing', async () => 'fastify');
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    expect((await fetch(url + '/thing')).status).toBe(200);
    expect(errors.map((error) => (error as Error).message)).toEqual(['broken handler']);
    await app.close();
  });
});
