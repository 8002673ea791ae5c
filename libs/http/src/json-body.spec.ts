import Fastify, { FastifyInstance } from 'fastify';
import { ValidationError } from '../../core/src/errors';
import { BODY_LIMITS, checkBody, MAX_BODY_BYTES, registerJsonParser } from './json-body';

const findForbiddenKey = (value: unknown) => {
  const found = checkBody(value);
  return found && found.message === 'this key is not allowed' ? found.path : null;
};

describe('checkBody: forbidden keys', () => {
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
    const chunk = 'x'.repeat(BODY_LIMITS.maxStringLength);
    const strings = Array.from({ length: 7 }, () => chunk);
    const prefix = JSON.stringify(strings).slice(0, -1) + ',"';
    const exact = `${prefix}${'x'.repeat(MAX_BODY_BYTES - prefix.length - 2)}"]`;
    expect(Buffer.byteLength(exact)).toBe(MAX_BODY_BYTES);
    expect((await post(exact)).statusCode).toBe(200);
    expect((await post(`{"a":"${'x'.repeat(MAX_BODY_BYTES)}"}`)).statusCode).toBe(413);
  });

  // Issue 23, items 1 to 3: a body's shape is bounded before any recursive code sees it.
  it('answers deep nesting with a 400 naming where, at any depth, without a stack overflow', async () => {
    for (const text of ['['.repeat(200_000) + ']'.repeat(200_000), '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)]) {
      const response = await post(text);
      expect(response.statusCode).toBe(400);
      expect(response.json().details[0].message).toMatch(/deeper than 32 levels/);
    }
    const limit = BODY_LIMITS.maxDepth;
    const inside = (depth: number) => `{"extra":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect((await post(inside(limit))).statusCode).toBe(200);
    const deep = await post(inside(limit + 1));
    expect(deep.statusCode).toBe(400);
    expect(deep.json().details[0].path).toBe(`extra${'[0]'.repeat(limit - 1)}`);
  });

  it('answers too many keys or values, and over-long strings, with a 400', async () => {
    const wide = Object.fromEntries(Array.from({ length: BODY_LIMITS.maxKeysPerObject + 1 }, (_, i) => [`k${i}`, i]));
    expect((await post(JSON.stringify({ a: wide }))).json().details).toEqual([{ path: 'a', message: 'must have at most 1000 keys' }]);
    const many = Array.from({ length: 25 }, () => Array.from({ length: 900 }, () => 0));
    expect((await post(JSON.stringify(many))).statusCode).toBe(400);
    const long = 'x'.repeat(BODY_LIMITS.maxStringLength + 1);
    expect((await post(JSON.stringify({ a: [1, long] }))).json().details).toEqual([{ path: 'a[1]', message: `must be at most ${BODY_LIMITS.maxStringLength} characters` }]);
    expect((await post(JSON.stringify({ a: 'x'.repeat(BODY_LIMITS.maxStringLength) }))).statusCode).toBe(200);
  });

  it('answers a lone UTF-16 surrogate in a value or a key with a 400, and takes surrogate pairs', async () => {
    for (const text of ['{"a":"\\ud800"}', '{"a":["x\\udc00@example.com"]}', '{"\\ud800":1}']) {
      const response = await post(text);
      expect(response.statusCode).toBe(400);
      expect(response.json().details[0].message).toMatch(/lone UTF-16 surrogate/);
    }
    expect((await post('{"a":"\\ud83d\\ude00 ok"}')).json()).toEqual({ body: { a: '\u{1F600} ok' }, proto: true });
  });
});
