import { DefaultChatTransport, readUIMessageStream, UIMessage } from 'ai';
import { ManualClock } from '../../libs/core/src/clock';
import { HeartbeatWatchdog } from '../../libs/heartbeats/src/heartbeats.api';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { AgentAnswer, agentPath, askAgent, Message, toolParts } from './agent-stream-client';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = '2026-03-01T10:00:00.000Z';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What one account has, as created through the API in beforeAll. */
interface World {
  /** Every name of this account's data starts with it. */
  prefix: string;
  account: TestAccount;
  apiService: { id: string; name: string };
  dbService: { id: string; name: string };
  page: { id: string; name: string; url: string };
  openIncident: { id: string; name: string };
  resolvedIncident: { id: string; name: string };
  failingCheck: { id: string; name: string };
  healthyCheck: { id: string; name: string };
}

describe('AI agent stream, builtin provider (endpoint 11)', () => {
  const clock = new ManualClock(T0);
  let server: TestServer;
  let a: World;
  let b: World;

  async function post(account: TestAccount, path: string, body: unknown, status = 201) {
    const response = await server.http.post(path, body, { key: account.key });
    expect(response.status).toBe(status);
    return response.body;
  }

  /** Two services, a page, an open and a resolved incident, a check that fails and one that pings. */
  async function world(prefix: string, slug: string): Promise<World> {
    const account = await server.account(`${prefix} account`);
    const apiService = await post(account, '/v1/status-pages/services', { name: `${prefix} API` });
    const dbService = await post(account, '/v1/status-pages/services', { name: `${prefix} Database` });
    const page = await post(account, '/v1/status-pages', {
      name: `${prefix} public status`,
      url: slug,
      cards: [{ name: 'Core', services: [{ id: apiService.id }, { id: dbService.id }] }],
    });
    const openIncident = await post(account, '/v1/status-pages/incidents', {
      name: `${prefix} checkout errors`,
      severity: 'MAJOR',
      services: [{ id: apiService.id }],
      incidentUpdates: [{ description: `${prefix}: we are looking into failed checkouts` }],
    });
    const resolvedIncident = await post(account, '/v1/status-pages/incidents', {
      name: `${prefix} slow queries`,
      severity: 'MINOR',
      services: [{ id: dbService.id }],
      incidentUpdates: [{ description: 'Queries are slow' }],
    });
    await post(account, `/v1/status-pages/incidents/${resolvedIncident.id}/incident-updates`, { description: 'Fixed', status: 'RESOLVED' }, 200);
    const failingCheck = await post(account, '/v1/checks/heartbeat', {
      name: `${prefix}-nightly-backup`,
      heartbeat: { period: 1, periodUnit: 'hours', grace: 5, graceUnit: 'minutes' },
    });
    const healthyCheck = await post(account, '/v1/checks/heartbeat', {
      name: `${prefix}-billing-cron`,
      heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' },
    });
    for (const check of [failingCheck, healthyCheck]) expect((await server.http.get(`/ping/${check.heartbeat.pingToken}`)).status).toBe(200);
    return { prefix, account, apiService, dbService, page, openIncident, resolvedIncident, failingCheck, healthyCheck };
  }

  beforeAll(async () => {
    server = await startTestServer({ clock, env: { VIGIL_DAEMON: 'off', VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
    a = await world('Alpha', 'alpha-status');
    b = await world('Bravo', 'bravo-status');
    // Two hours on: the hourly checks miss their deadline and the watchdog writes FAILING; the daily ones ping again.
    clock.advance(2 * HOUR);
    expect((await server.app.get(HeartbeatWatchdog).runOnce()).failed).toBe(2);
    for (const world of [a, b]) {
      const check = await server.http.get(`/v1/checks/${world.healthyCheck.id}`, { key: world.account.key });
      expect((await server.http.get(`/ping/${check.body.heartbeat.pingToken}`)).status).toBe(200);
    }
  });
  afterAll(() => server.close());

  const ask = (world: World, messages: Message[] | string, options?: Parameters<typeof askAgent>[4]) =>
    askAgent(server.url, world.account.id, world.account.key, messages, options);

  /** Nothing of the other account, by name or id, anywhere in the raw stream. */
  function expectOnly(answer: AgentAnswer, other: World) {
    expect(answer.raw).not.toContain(other.prefix);
    for (const value of [
      other.account.id,
      other.apiService.id,
      other.dbService.id,
      other.page.id,
      other.page.url,
      other.openIncident.id,
      other.resolvedIncident.id,
      other.failingCheck.id,
      other.healthyCheck.id,
    ]) {
      expect(answer.raw).not.toContain(value);
    }
  }

  function expectWellFormed(answer: AgentAnswer) {
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    expect(answer.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(answer.errors).toEqual([]);
    const types = answer.chunks.map((chunk) => chunk.type);
    expect(types[0]).toBe('start');
    expect(types[types.length - 1]).toBe('finish');
    expect(answer.raw.endsWith('data: [DONE]\n\n')).toBe(true);
    // Steps balance, and every text part opens before its deltas and closes.
    expect(types.filter((t) => t === 'start-step').length).toBe(types.filter((t) => t === 'finish-step').length);
    expect(types.filter((t) => t === 'text-start').length).toBe(types.filter((t) => t === 'text-end').length);
    expect(answer.message?.role).toBe('assistant');
    expect(answer.text.length).toBeGreaterThan(0);
  }

  describe('protocol', () => {
    it('streams the AI SDK UI message stream, which the AI SDK reads into a message with tool parts', async () => {
      const answer = await ask(a, 'What is down right now?', { headers: { 'x-request-id': 'agent-req-1' } });
      expectWellFormed(answer);
      expect(answer.headers.get('x-request-id')).toBe('agent-req-1');
      expect(answer.headers.get('ratelimit-limit')).toBe('100000');
      expect(answer.headers.get('cache-control')).toBe('no-cache');
      expect(answer.chunks.map((c) => c.type)).toEqual([
        'start',
        'start-step',
        'tool-input-available',
        'tool-output-available',
        'finish-step',
        'start-step',
        'text-start',
        ...answer.chunks.filter((c) => c.type === 'text-delta').map(() => 'text-delta'),
        'text-end',
        'finish-step',
        'finish',
      ]);
      expect(answer.chunks[0]).toEqual({ type: 'start', messageId: expect.stringMatching(UUID) });
      expect(answer.message!.id).toBe((answer.chunks[0] as { messageId: string }).messageId);
      expect(toolParts(answer)).toEqual([{ name: 'whats_down', state: 'output-available', input: {}, output: expect.any(Object), errorText: undefined }]);
      expect(answer.chunks[answer.chunks.length - 1]).toEqual({ type: 'finish', finishReason: 'stop' });
    });

    it("works through the AI SDK's own chat transport, with UI messages and its extra fields", async () => {
      const transport = new DefaultChatTransport<UIMessage>({
        api: server.url + agentPath(a.account.id),
        headers: { authorization: `Bearer ${a.account.key}` },
      });
      const messages: UIMessage[] = [
        { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What is down right now?' }] },
        {
          id: 'a1',
          role: 'assistant',
          parts: [
            { type: 'step-start' },
            { type: 'tool-whats_down', toolCallId: 'builtin-1', state: 'output-available', input: {}, output: {} } as UIMessage['parts'][number],
            { type: 'text', text: 'One check is failing.' },
          ],
        },
        { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Which incidents are open?' }] },
      ];
      const stream = await transport.sendMessages({ chatId: 'c1', messageId: undefined, messages, abortSignal: undefined, trigger: 'submit-message' });
      let last: UIMessage | undefined;
      for await (const message of readUIMessageStream({ stream })) last = message;
      const text = last!.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
      expect(text).toContain(a.openIncident.name);
      expect(last!.parts.some((p) => p.type === 'tool-list_open_incidents')).toBe(true);
    });

    it('Accept: text/plain gives the text alone, chunked', async () => {
      const response = await fetch(server.url + agentPath(a.account.id), {
        method: 'POST',
        headers: { authorization: `Bearer ${a.account.key}`, 'content-type': 'application/json', accept: 'text/plain' },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'Which incidents are open?' }] }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(response.headers.get('transfer-encoding')).toBe('chunked');
      expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBeNull();
      expect(response.headers.get('x-request-id')).toEqual(expect.any(String));
      const text = await response.text();
      expect(text).toMatch(/^1 incident is open:\n- "Alpha checkout errors" \(MAJOR, INVESTIGATING, opened 2026-03-01T10:00:00\.000Z\) — affects Alpha API/);
      expect(text).not.toContain('data:');
      expect(text).not.toContain('whats_down');
    });

    it('answers in SSE for Accept headers that do not prefer text/plain', async () => {
      for (const accept of ['*/*', 'application/json', 'text/event-stream', 'text/plain;q=0.1, text/event-stream']) {
        const answer = await ask(a, 'Which incidents are open?', { headers: { accept } });
        expect(answer.headers.get('content-type')).toBe('text/event-stream');
        expect(answer.text).toContain(a.openIncident.name);
      }
    });
  });

  describe('answers the common questions from the data', () => {
    it('what is down: the failing check by name and the service hit by the open incident', async () => {
      const answer = await ask(a, 'What is down right now?');
      expectWellFormed(answer);
      expect(answer.text).toContain('Right now 1 heartbeat check is failing and 1 service is affected by open incidents.');
      expect(answer.text).toContain(`"${a.failingCheck.name}": last FAILING event at 2026-03-01T11:05:00.000Z`);
      expect(answer.text).toContain(`- Alpha API: partial outage — "${a.openIncident.name}" (MAJOR, INVESTIGATING)`);
      expect(answer.text).not.toContain(a.healthyCheck.name);
      expect(answer.text).not.toContain(a.resolvedIncident.name);
      const [tool] = toolParts(answer);
      expect(tool.output.failingChecks).toEqual([{ id: a.failingCheck.id, name: a.failingCheck.name, muted: false, lastFailingAt: '2026-03-01T11:05:00.000Z' }]);
      expectOnly(answer, b);
    });

    it('open incidents: the incident the test opened, not the resolved one', async () => {
      const answer = await ask(a, 'Which incidents are open?');
      expectWellFormed(answer);
      expect(answer.text).toContain(`"${a.openIncident.name}" (MAJOR, INVESTIGATING`);
      expect(answer.text).toContain('Alpha: we are looking into failed checkouts');
      expect(answer.text).not.toContain(a.resolvedIncident.name);
      expectOnly(answer, b);
    });

    it('incident details, by id and by quoted name, with the timeline', async () => {
      const byId = await ask(a, `Tell me about incident ${a.resolvedIncident.id}`);
      expectWellFormed(byId);
      expect(byId.text).toContain(`Incident "${a.resolvedIncident.name}" (${a.resolvedIncident.id})`);
      expect(byId.text).toContain('Timeline (2 updates):');
      expect(byId.text).toContain('RESOLVED: Fixed');
      const byName = await ask(a, `What happened in the incident "${a.openIncident.name}"?`);
      expect(byName.text).toContain(`Incident "${a.openIncident.name}"`);
      expect(byName.text).toContain('Services: Alpha API');
    });

    it("another account's incident id is not found", async () => {
      const answer = await ask(a, `Tell me about incident ${b.openIncident.id}`);
      expectWellFormed(answer);
      expect(answer.text).toContain(`No incident of this account matches "${b.openIncident.id}"`);
      expect(answer.text).not.toContain(b.openIncident.name);
      expect(toolParts(answer).map((t) => t.state)).toEqual(['output-error']);
    });

    it('status page summary: overall status, services, open and recently resolved incidents', async () => {
      const answer = await ask(a, 'Summarize my status page');
      expectWellFormed(answer);
      expect(answer.text).toContain(`Status page "${a.page.name}" (/status/${a.page.url}): partial outage.`);
      expect(answer.text).toContain('- Alpha API: partial outage');
      expect(answer.text).toContain('- Alpha Database: operational');
      expect(answer.text).toContain(`Open incidents (1):`);
      expect(answer.text).toContain(`Resolved in the last 7 days: "${a.resolvedIncident.name}"`);
      expectOnly(answer, b);
    });

    it('availability of a named check over a window', async () => {
      const answer = await ask(a, `What is the availability of ${a.failingCheck.name} over the last 7 days?`);
      expectWellFormed(answer);
      // One ping and one FAILING in the window.
      expect(answer.text).toContain(
        `Availability of check "${a.failingCheck.name}" over the last 7 days (2026-02-22T12:00:00.000Z to 2026-03-01T12:00:00.000Z): 50% (2 events, 1 FAILING).`,
      );
      expect(answer.text).toContain('The period of equal length before it has no events to compare with.');
      expect(toolParts(answer).map((t) => [t.name, t.state])).toEqual([
        ['list_checks', 'output-available'],
        ['check_availability', 'output-available'],
      ]);
      expect(toolParts(answer)[1].input).toEqual({ check: a.failingCheck.id, hours: 168 });

      // Part of a name is enough when it points at one check only.
      const byWord = await ask(a, 'How was the availability of the backup check this week?');
      expect(byWord.text).toContain(`Availability of check "${a.failingCheck.name}" over the last 7 days`);

      const healthy = await ask(a, `uptime of ${a.healthyCheck.name} in the past 24 hours`);
      expect(healthy.text).toContain(`Availability of check "${a.healthyCheck.name}" over the last 24 hours`);
      expect(healthy.text).toContain('100% (2 events, 0 FAILINGs)');
    });

    it('availability without a check named: asks which one, listing only own checks', async () => {
      const answer = await ask(a, 'What was the availability last week?');
      expectWellFormed(answer);
      expect(answer.text).toContain('Which check do you mean?');
      expect(answer.text).toContain(a.failingCheck.name);
      expect(answer.text).toContain(a.healthyCheck.name);
      expectOnly(answer, b);
    });

    it("another account's check name is not found", async () => {
      const answer = await ask(a, `availability of "${b.failingCheck.name}" last 7 days`);
      expectWellFormed(answer);
      expect(answer.text).toContain(`No check of this account matches "${b.failingCheck.name}"`);
      expect(answer.text).not.toContain(b.failingCheck.id);
    });

    it('recent heartbeat events of a check, newest first', async () => {
      const answer = await ask(a, `Show the recent heartbeat events of ${a.failingCheck.name}`);
      expectWellFormed(answer);
      expect(answer.text).toContain(`The latest 2 heartbeat events of check "${a.failingCheck.name}" (now failing), newest first:`);
      expect(answer.text.indexOf('2026-03-01T11:05:00.000Z FAILING')).toBeGreaterThan(0);
      expect(answer.text.indexOf('2026-03-01T10:00:00.000Z RECEIVED')).toBeGreaterThan(answer.text.indexOf('FAILING'));
    });

    it('drafts an incident update as text and writes nothing', async () => {
      const before = await server.http.get(`/v1/status-pages/incidents/${a.openIncident.id}`, { key: a.account.key });
      const answer = await ask(a, 'Draft an update for the checkout incident saying the fix is deployed');
      expectWellFormed(answer);
      expect(answer.text).toContain(`Here is a draft MONITORING update for "${a.openIncident.name}" (MAJOR, now INVESTIGATING). Nothing has been posted`);
      expect(answer.text).toContain(`> A fix for "${a.openIncident.name}" has been put in place. We are monitoring Alpha API`);
      const after = await server.http.get(`/v1/status-pages/incidents/${a.openIncident.id}`, { key: a.account.key });
      expect(after.body).toEqual(before.body);
      expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    });

    it('asked to change something, says it only reads, and drafts instead', async () => {
      const answer = await ask(a, `Resolve the incident "${a.openIncident.name}"`);
      expectWellFormed(answer);
      expect(answer.text).toMatch(/^I can only read this account's data: I can't create, change, resolve or post anything\./);
      expect(answer.text).toContain(`draft RESOLVED update for "${a.openIncident.name}"`);
      const incident = await server.http.get(`/v1/status-pages/incidents/${a.openIncident.id}`, { key: a.account.key });
      expect(incident.body.lastUpdateStatus).toBe('INVESTIGATING');
    });

    it('several questions at once, each answered', async () => {
      const answer = await ask(a, 'What is down, and which incidents are open?');
      expectWellFormed(answer);
      expect(toolParts(answer).map((t) => t.name)).toEqual(['whats_down', 'list_open_incidents']);
      expect(answer.text).toContain('Failing checks:');
      expect(answer.text).toContain('1 incident is open:');
    });

    it('says plainly what it cannot answer', async () => {
      const answer = await ask(a, "What's the weather in Lisbon?");
      expectWellFormed(answer);
      expect(answer.text).toMatch(/^I can't answer that/);
      expect(answer.text).toContain('what is down right now');
      expect(toolParts(answer)).toEqual([]);
      expect(answer.chunks.map((c) => c.type)).toEqual([
        'start',
        'start-step',
        'text-start',
        ...answer.chunks.filter((c) => c.type === 'text-delta').map(() => 'text-delta'),
        'text-end',
        'finish-step',
        'finish',
      ]);
    });

    it('answers from the last user message of a longer conversation, in either shape', async () => {
      const answer = await ask(a, [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', parts: [{ type: 'text', text: 'Tell me a joke' }] },
        { role: 'assistant', content: "I can't answer that." },
        { id: 'x', role: 'user', parts: [{ type: 'text', text: 'Which incidents are open?' }] },
      ]);
      expectWellFormed(answer);
      expect(answer.text).toContain(a.openIncident.name);
    });
  });

  describe('account isolation', () => {
    it('every question, asked by each account, shows only its own data', async () => {
      const questions = [
        'What is down right now?',
        'Which incidents are open?',
        'Summarize my status pages',
        'Which checks do I have?',
        'Draft an update',
        'availability of nightly-backup last 7 days',
        'recent heartbeat events of billing-cron',
      ];
      for (const [own, other] of [
        [a, b],
        [b, a],
      ] as const) {
        for (const question of questions) {
          const answer = await ask(own, question);
          expectWellFormed(answer);
          expectOnly(answer, other);
        }
      }
    });

    it('a READ_ONLY key may ask (the agent only reads)', async () => {
      const readOnly = await a.account.newKey('READ_ONLY');
      const answer = await askAgent(server.url, a.account.id, readOnly.apiKey, 'Which incidents are open?');
      expectWellFormed(answer);
      expect(answer.text).toContain(a.openIncident.name);
    });

    it('a key that grants several accounts answers for the one in the path', async () => {
      const both = await a.account.newKey('READ_ONLY', [b.account.id]);
      const forB = await askAgent(server.url, b.account.id, both.apiKey, 'Which incidents are open?');
      expect(forB.text).toContain(b.openIncident.name);
      expect(forB.raw).not.toContain('Alpha');
      const forA = await askAgent(server.url, a.account.id.toUpperCase(), both.apiKey, 'Which incidents are open?');
      expect(forA.text).toContain(a.openIncident.name);
      expect(forA.raw).not.toContain('Bravo');
    });
  });

  describe('refuses before streaming, in the standard error shape', () => {
    function expectRefused(answer: AgentAnswer, status: number, error: string) {
      expect(answer.status).toBe(status);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.headers.get('x-vercel-ai-ui-message-stream')).toBeNull();
      expect(answer.headers.get('x-request-id')).toEqual(expect.any(String));
      expect(answer.json).toMatchObject({ statusCode: status, error });
      expect(answer.raw).not.toContain('data:');
    }

    it.each<[string, unknown, { path: string; message: string }[]]>([
      ['no messages', {}, [{ path: 'messages', message: 'messages is required' }]],
      ['an empty list', { messages: [] }, [{ path: 'messages', message: 'messages must hold at least 1 message' }]],
      ['messages not a list', { messages: 'What is down?' }, [{ path: 'messages', message: 'messages must be an array' }]],
      ['a bad role', { messages: [{ role: 'tool', content: 'x' }, { role: 'user', content: 'y' }] }, [{ path: 'messages[0].role', message: 'role must be one of system, user, assistant' }]],
      ['the last message not from the user', { messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: 'y' }] }, [{ path: 'messages[1].role', message: 'the last message must come from the user' }]],
      ['oversize text', { messages: [{ role: 'user', content: 'x'.repeat(100_001) }] }, [{ path: 'messages', message: 'all text together may be at most 100000 bytes (UTF-8), got 100001' }]],
      ['too many messages', { messages: Array.from({ length: 51 }, () => ({ role: 'user', content: 'x' })) }, [{ path: 'messages', message: 'messages may hold at most 50 messages, got 51' }]],
      ['a part that is not text', { messages: [{ role: 'user', parts: [{ type: 'text', text: 'Read this' }, { type: 'file', url: 'data:,x', mediaType: 'text/plain' }] }] }, [{ path: 'messages[0].parts[1].type', message: 'part type "file" is not supported; only text parts are' }]],
      ['content that is not a string', { messages: [{ role: 'user', content: 42 }] }, [{ path: 'messages[0].content', message: 'content must be a string' }]],
      ['a body that is a list', [{ role: 'user', content: 'x' }], [{ path: '', message: 'expected a JSON object' }]],
      ['a poisoned key', JSON.parse('{"messages":[{"role":"user","content":"x","__proto__":{"a":1}}]}'), [{ path: 'messages[0].__proto__', message: 'this key is not allowed' }]],
    ])('400 for %s', async (_name, body, details) => {
      const answer = await ask(a, [], { body });
      expectRefused(answer, 400, 'Bad Request');
      expect(answer.json.details).toEqual(details);
    });

    it('400 for malformed JSON and an empty body; 415 for another content type; 413 over 1 MiB', async () => {
      const send = (body: string, contentType = 'application/json') =>
        fetch(server.url + agentPath(a.account.id), {
          method: 'POST',
          headers: { authorization: `Bearer ${a.account.key}`, 'content-type': contentType },
          body,
        });
      expect((await send('{"messages": [')).status).toBe(400);
      expect((await send('')).status).toBe(400);
      const wrongType = await send('messages=hi', 'text/plain');
      expect(wrongType.status).toBe(415);
      expect(await wrongType.json()).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
      expect((await send(JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(1024 * 1024) }] }))).status).toBe(413);
    });

    it('401 without a key or with an unknown one', async () => {
      const none = await askAgent(server.url, a.account.id, null, 'What is down?');
      expectRefused(none, 401, 'Unauthorized');
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      expectRefused(await askAgent(server.url, a.account.id, 'not-a-real-key-0000000000', 'What is down?'), 401, 'Unauthorized');
    });

    it('403 for an account the key does not grant (another account, an unknown or malformed id)', async () => {
      for (const accountId of [b.account.id, '01900000-0000-7000-8000-000000000000', 'not-an-id']) {
        const answer = await askAgent(server.url, accountId, a.account.key, 'What is down?');
        expectRefused(answer, 403, 'Forbidden');
      }
    });

    it('403 comes before 400: a foreign account with a bad body', async () => {
      expectRefused(await askAgent(server.url, b.account.id, a.account.key, [], { body: { messages: [] } }), 403, 'Forbidden');
    });

    it('405 for other methods on the path', async () => {
      const response = await server.http.get(agentPath(a.account.id), { key: a.account.key });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toContain('POST');
    });
  });
});
