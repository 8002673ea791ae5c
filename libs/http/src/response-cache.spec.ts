import Fastify, { FastifyInstance } from 'fastify';
import { BuiltResponse, installKeptAnswers, ResponseCache } from './response-cache';

/** A real Fastify route answering through the cache, so headers and bodies are what clients get. */
function serve(cache: ResponseCache, state: { token: string | null; builds: number; body: () => BuiltResponse }): FastifyInstance {
  const app = Fastify();
  const route = cache.keep('/:key', { token: () => state.token, keeps: (request) => (request.query as { past?: string }).past === undefined });
  app.get('/:key', async (request, reply) =>
    cache.answer(request, reply, 'account-1', route, async () => {
      state.builds += 1;
      return state.body();
    }),
  );
  return app;
}

describe('ResponseCache', () => {
  it('given a kept answer, when the token is unchanged, then it answers the same bytes and ETag without building', async () => {
    const cache = new ResponseCache();
    const state = { token: 't1', builds: 0, body: () => ({ body: { name: 'API', n: state.builds }, revision: 3n }) };
    const app = serve(cache, state);
    const first = await app.inject('/a');
    const second = await app.inject('/a');
    expect(first.json()).toEqual({ name: 'API', n: 1 });
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe('"3"');
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(state.builds).toBe(1);
    expect(cache.stats).toMatchObject({ entries: 1, hits: 1, misses: 1 });
  });

  it('given a kept answer, when the token changes, then it builds again and keeps the new one', async () => {
    const cache = new ResponseCache();
    const state = { token: 't1' as string | null, builds: 0, body: () => ({ body: { n: state.builds } }) };
    const app = serve(cache, state);
    await app.inject('/a');
    state.token = 't2';
    expect((await app.inject('/a')).json()).toEqual({ n: 2 });
    expect((await app.inject('/a')).json()).toEqual({ n: 2 });
    expect((await app.inject('/a')).headers.etag).toBeUndefined();
    expect(state.builds).toBe(2);
  });

  it('given a store that cannot tell (null token), then every request builds and nothing is kept', async () => {
    const cache = new ResponseCache();
    const state = { token: null, builds: 0, body: () => ({ body: { n: state.builds } }) };
    const app = serve(cache, state);
    await app.inject('/a');
    expect((await app.inject('/a')).json()).toEqual({ n: 2 });
    expect(cache.stats.entries).toBe(0);
  });

  it('given a build that throws, then the error reaches the client and nothing is kept', async () => {
    const cache = new ResponseCache();
    let fail = true;
    const state = {
      token: 't1',
      builds: 0,
      body: () => {
        if (fail) throw new Error('boom');
        return { body: { ok: true } };
      },
    };
    const app = serve(cache, state);
    expect((await app.inject('/a')).statusCode).toBe(500);
    fail = false;
    expect((await app.inject('/a')).json()).toEqual({ ok: true });
    expect(state.builds).toBe(2);
  });

  it('given more bytes than its budget, then answers not read since they were last passed go first', async () => {
    const body = 'x'.repeat(100);
    // Each entry holds 102 bytes of JSON: room for two.
    const cache = new ResponseCache(250);
    const state = { token: 't', builds: 0, body: () => ({ body }) };
    const app = serve(cache, state);
    await app.inject('/a');
    await app.inject('/b');
    await app.inject('/a'); // a is read again: it gets a second chance
    await app.inject('/c'); // evicts b, which was not read again
    expect(cache.stats.entries).toBe(2);
    const builds = state.builds;
    await app.inject('/a');
    await app.inject('/c');
    expect(state.builds).toBe(builds);
    await app.inject('/b');
    expect(state.builds).toBe(builds + 1);
    expect(cache.stats.bytes).toBeLessThanOrEqual(250);
  });

  it('given concurrent misses of one answer, then one build serves them all, and a failed build is not kept', async () => {
    const cache = new ResponseCache();
    let release: () => void = () => undefined;
    let fail = false;
    const state = {
      token: 't',
      builds: 0,
      body: () => ({ body: { n: state.builds } }),
    };
    const app = Fastify();
    const route = cache.keep('/:key', { token: () => state.token });
    app.get('/:key', async (request, reply) =>
      cache.answer(request, reply, 'account-1', route, async () => {
        state.builds += 1;
        await new Promise<void>((resolve) => (release = resolve));
        if (fail) throw new Error('boom');
        return state.body();
      }),
    );
    const many = Promise.all(Array.from({ length: 5 }, () => app.inject('/a')));
    while (state.builds === 0) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const answers = await many;
    expect(state.builds).toBe(1);
    expect(new Set(answers.map((a) => a.body))).toEqual(new Set(['{"n":1}']));

    fail = true;
    state.token = 't2';
    const failing = Promise.all(Array.from({ length: 3 }, () => app.inject('/a')));
    while (state.builds === 1) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    expect((await failing).map((a) => a.statusCode)).toEqual([500, 500, 500]);
    expect(state.builds).toBe(2);
    fail = false;
    const again = app.inject('/a');
    while (state.builds === 2) await new Promise((resolve) => setImmediate(resolve));
    release();
    expect((await again).json()).toEqual({ n: 3 });
  });

  it('given a request the route does not keep (a past state), then it builds every time', async () => {
    const cache = new ResponseCache();
    const state = { token: 't', builds: 0, body: () => ({ body: { n: state.builds } }) };
    const app = serve(cache, state);
    await app.inject('/a?past=1');
    expect((await app.inject('/a?past=1')).json()).toEqual({ n: 2 });
    expect(cache.stats.entries).toBe(0);
  });

  describe('before routing (installKeptAnswers)', () => {
    async function early(accountOf: (r: { headers: Record<string, unknown> }) => string | undefined) {
      const cache = new ResponseCache();
      const state = { token: 't', builds: 0, handled: 0, body: () => ({ body: { n: state.builds }, revision: 7n }) };
      const app = Fastify();
      const route = cache.keep('/things/:id', { token: () => state.token });
      app.get('/things/:id', async (request, reply) => {
        state.handled += 1;
        return cache.answer(request, reply, 'account-1', route, async () => {
          state.builds += 1;
          return state.body();
        });
      });
      app.get('/other', async () => ({ other: true }));
      installKeptAnswers(app, cache, accountOf);
      await app.ready();
      return { app, cache, state };
    }

    it('given a kept, current answer and a known caller, then it answers without reaching the route', async () => {
      const { app, cache, state } = await early(() => 'account-1');
      const first = await app.inject('/things/1');
      const second = await app.inject('/things/1');
      expect(second.body).toBe(first.body);
      expect(second.headers.etag).toBe('"7"');
      expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(state.handled).toBe(1);
      expect(cache.stats.servedBeforeRouting).toBe(1);
    });

    it('given a caller it cannot tell at once, another account, a stale answer or another route, then the route answers', async () => {
      let account: string | undefined = 'account-1';
      const { app, cache, state } = await early(() => account);
      await app.inject('/things/1');
      account = undefined;
      await app.inject('/things/1');
      account = 'account-2';
      await app.inject('/things/1');
      account = 'account-1';
      state.token = 't2';
      await app.inject('/things/1');
      expect((await app.inject('/other')).json()).toEqual({ other: true });
      expect(state.handled).toBe(4);
      expect(cache.stats.servedBeforeRouting).toBe(0);
    });

    it('refuses to start when a kept route does not exist', async () => {
      const cache = new ResponseCache();
      cache.keep('/nowhere/:id', { token: () => 't' });
      const app = Fastify();
      installKeptAnswers(app, cache, () => 'a');
      await expect(app.ready()).rejects.toThrow(/nowhere/);
    });
  });
});
