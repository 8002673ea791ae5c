import Fastify, { FastifyInstance } from 'fastify';
import { ValidationError } from '../../core/src/errors';
import { findForbiddenKey, MAX_BODY_BYTES, registerJsonParser } from './json-body';

describe('findForbiddenKey', () => {
  it('finds nothing in ordinary bodies', () => {
    expect(findForbiddenKey({ name: 'x', services: [{ id: 'a' }], nested: { deep: [1, 'two', null] } })).toBeNull();
    expect(findForbiddenKey(null)).toBeNull();
    expect(findForbiddenKey('constructor')).toBeNull();
    expect(findForbiddenKey(['prototype'])).toBeNull();
  });

  it.each(['__proto__', 'constructor', 'prototype'])('finds %s at the top, nested in objects and in arrays, with its path', (key) => {
    expect(findForbiddenKey(JSON.parse(`{"${key}": {}}`))).toBe(key);
    expect(findForbiddenKey(JSON.parse(`{"a": {"b": {"${key}": 1}}}`))).toBe(`a.b.${key}`);
    expect(findForbiddenKey(JSON.parse(`{"cards": [{"services": [{"id": "x"}, {"${key}": 1}]}]}`))).toBe(`cards[0].services[1].${key}`);
    expect(findForbiddenKey(JSON.parse(`[{"${key}": 1}]`))).toBe(`[0].${key}`);
  });

  it('does not mistake look-alike keys', () => {
    expect(findForbiddenKey({ proto: 1, Constructor: 2, prototypes: 3, __proto: 4 })).toBeNull();
  });
});

describe('registerJsonParser', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify({ bodyLimit: MAX_BODY_BYTES });
    registerJsonParser(app);
    app.setErrorHandler((error: Error, _request, reply) => {
      const details = error instanceof ValidationError ? error.details : undefined;
      void reply.status((error as { statusCode?: number }).statusCode ?? 500).send({ kind: error.constructor.name, message: error.message, details });
    });
    app.post('/echo', async (request) => ({ body: request.body ?? null, proto: Object.getPrototypeOf(request.body ?? {}) === Object.prototype }));
    await app.ready();
  });

  afterAll(() => app.close());

  const post = (payload: string | Buffer, contentType = 'application/json') =>
    app.inject({ method: 'POST', url: '/echo', payload, headers: { 'content-type': contentType } });

  it('parses JSON, with or without a charset, and +json types', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json']) {
      const response = await post('{"name":"a"}', type);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ body: { name: 'a' }, proto: true });
    }
  });

  it('treats an empty body as no body', async () => {
    expect((await post('')).json()).toEqual({ body: null, proto: true });
  });

  it('answers malformed JSON with a 400', async () => {
    const response = await post('{"name": ');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ kind: 'ValidationError', message: 'Body is not valid JSON' });
  });

  it('answers a forbidden key anywhere with a 400 naming its path, without touching any prototype', async () => {
    const response = await post('{"a":[{"b":{"__proto__":{"polluted":true}}}]}');
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ path: 'a[0].b.__proto__', message: 'this key is not allowed' }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers another content type with a 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
      expect((await post('{"name":"a"}', type)).statusCode).toBe(415);
    }
  });

  it('answers a body over 1 MiB with a 413, and takes one of exactly 1 MiB', async () => {
    const exact = `{"a":"${'x'.repeat(MAX_BODY_BYTES - 8)}"}`;
    expect(Buffer.byteLength(exact)).toBe(MAX_BODY_BYTES);
    expect((await post(exact)).statusCode).toBe(200);
    expect((await post(`{"a":"${'x'.repeat(MAX_BODY_BYTES)}"}`)).statusCode).toBe(413);
  });
});
