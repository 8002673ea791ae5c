import { BadRequestException, ForbiddenException, NotFoundException } from '@nestjs/common';
import Fastify, { FastifyInstance } from 'fastify';
import {
  ConcurrencyError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PreconditionFailedError,
  StoreUnavailableError,
  UnauthorizedError,
  ValidationError,
} from '../../core/src/errors';
import { routerError, sendError } from './error-filter';
import { registerJsonParser } from './json-body';

/** Real Fastify, routes that throw, and the filter's sendError as the one error writer. */
async function appThrowing(errors: Record<string, () => unknown>): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, genReqId: () => 'req-1' });
  registerJsonParser(app);
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply, app));
  app.setNotFoundHandler((request, reply) => sendError(new NotFoundException(), request, reply, app));
  for (const [name, make] of Object.entries(errors)) {
    app.get(`/${name}`, async () => {
      throw make();
    });
  }
  app.post('/things', async () => ({ ok: true }));
  app.put('/things/:id', async () => ({ ok: true }));
  // A wildcard that finds nothing, as @fastify/static does under /docs.
  app.get('/files/*', async (_request, reply) => reply.callNotFound());
  await app.ready();
  return app;
}

describe('error filter', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await appThrowing({
      validation: () => ValidationError.of([{ path: 'services[0].id', message: 'must name a service of this account' }]),
      badQuery: () => new ValidationError('limit must be an integer from 1 to 100'),
      unauthorized: () => new UnauthorizedError('Unknown or revoked API key'),
      forbidden: () => new ForbiddenError('This API key is read-only'),
      notFound: () => new NotFoundError('Service not found'),
      conflict: () => new ConflictError('Service is still used by a card'),
      concurrency: () => new ConcurrencyError('service-1', '3', '4'),
      precondition: () => new PreconditionFailedError(),
      nestForbidden: () => new ForbiddenException('Forbidden resource'),
      nestBadRequest: () => new BadRequestException(['a is wrong', 'b is wrong']),
      crash: () => new Error('SQLITE_CORRUPT at /var/lib/vigil/vigil.db: SELECT * FROM secrets'),
      typeError: () => new TypeError("Cannot read properties of undefined (reading 'x')"),
      store: () => new StoreUnavailableError('mongodb://user:pw@db:27017 timed out'),
    });
  });

  afterAll(() => app.close());

  const get = (path: string) => app.inject({ method: 'GET', url: path });

  it('maps a validation error to 400 with every detail', async () => {
    const response = await get('/validation');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Validation failed',
      details: [{ path: 'services[0].id', message: 'must name a service of this account' }],
    });
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('leaves details out when there are none', async () => {
    expect((await get('/badQuery')).json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'limit must be an integer from 1 to 100' });
  });

  it.each([
    ['/unauthorized', 401, 'Unauthorized'],
    ['/forbidden', 403, 'Forbidden'],
    ['/notFound', 404, 'Not Found'],
    ['/conflict', 409, 'Conflict'],
    ['/concurrency', 409, 'Conflict'],
    ['/precondition', 412, 'Precondition Failed'],
    ['/nestForbidden', 403, 'Forbidden'],
  ])('maps %s to %i with the reason phrase and the message', async (path, status, reason) => {
    const response = await get(path);
    expect(response.statusCode).toBe(status);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'statusCode']);
    expect(body).toMatchObject({ statusCode: status, error: reason });
    expect(body.message).toEqual(expect.any(String));
    expect(body.message.length).toBeGreaterThan(0);
  });

  it('joins the messages of a Nest BadRequestException', async () => {
    expect((await get('/nestBadRequest')).json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'a is wrong; b is wrong' });
  });

  it('adds WWW-Authenticate: Bearer to a 401', async () => {
    expect((await get('/unauthorized')).headers['www-authenticate']).toBe('Bearer');
  });

  it.each(['/crash', '/typeError'])('hides the internals of a 500 (%s) behind the request id', async (path) => {
    const response = await get(path);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error', requestId: 'req-1' });
    expect(response.body).not.toMatch(/SQLITE|vigil\.db|SELECT|undefined|at /);
  });

  it('answers an unreachable store with 503, Retry-After and the request id, without the cause', async () => {
    const response = await get('/store');
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'A backing store is unavailable, try again shortly',
      requestId: 'req-1',
    });
  });

  it("maps Fastify's own errors: bad JSON 400, unknown type 415, too large 413", async () => {
    const bad = await app.inject({ method: 'POST', url: '/things', payload: '{', headers: { 'content-type': 'application/json' } });
    expect(bad.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Body is not valid JSON' });
    const type = await app.inject({ method: 'POST', url: '/things', payload: 'x', headers: { 'content-type': 'text/plain' } });
    expect(type.json()).toEqual({ statusCode: 415, error: 'Unsupported Media Type', message: 'Content-Type must be application/json' });
    const big = await app.inject({
      method: 'POST',
      url: '/things',
      payload: `{"a":"${'x'.repeat(1024 * 1024 + 1)}"}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(big.json()).toEqual({ statusCode: 413, error: 'Payload Too Large', message: 'Body is larger than 1 MiB' });
  });

  it('answers an unknown path with 404 and a known path with the wrong method with 405 and Allow', async () => {
    expect((await get('/nowhere')).json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not found' });
    const wrong = await app.inject({ method: 'DELETE', url: '/things' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    expect(wrong.json()).toEqual({ statusCode: 405, error: 'Method Not Allowed', message: 'Method DELETE is not allowed here' });
    const withParam = await app.inject({ method: 'GET', url: '/things/abc?x=1' });
    expect(withParam.statusCode).toBe(405);
    expect(withParam.headers.allow).toBe('PUT');
  });

  it('answers 404, not 405, when a route takes the method but finds nothing (a wildcard)', async () => {
    const missing = await get('/files/nope.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.allow).toBeUndefined();
  });
});

describe('router errors (frameworkErrors)', () => {
  it('answers a path parameter over maxParamLength with a 404 and an undecodable URL with a 400, in the error shape', async () => {
    const app = Fastify({ logger: false, genReqId: () => 'req-2', routerOptions: { maxParamLength: 10 }, frameworkErrors: routerError });
    app.get('/things/:id', async () => ({ ok: true }));
    await app.ready();
    const long = await app.inject({ method: 'GET', url: `/things/${'x'.repeat(11)}` });
    expect(long.statusCode).toBe(404);
    expect(long.headers['x-request-id']).toBe('req-2');
    expect(long.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not found' });
    const bad = await app.inject({ method: 'GET', url: '/things/%zz' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(expect.objectContaining({ statusCode: 400, error: 'Bad Request' }));
    await app.close();
  });
});
