import { createServer, IncomingMessage, request as httpRequest, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { agentPath, askAgent, toolParts } from './agent-stream-client';

/** One request the fake model server received. */
interface UpstreamRequest {
  authorization: string | undefined;
  body: {
    model: string;
    stream: boolean;
    tool_choice?: string;
    tools: { type: string; function: { name: string; parameters: unknown } }[];
    messages: { role: string; content: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
  };
  /** Set when the connection closed before the answer was complete: the caller went away. */
  closedEarly: boolean;
}

type Delta = { content?: string; tool_calls?: { index: number; id?: string; type?: 'function'; function: { name?: string; arguments?: string } }[] };

/**
 * A chat-completions server on 127.0.0.1 speaking the streaming protocol (SSE of
 * chat.completion.chunk, then [DONE]). What it answers depends on the conversation it is sent,
 * so the whole tool loop runs over real HTTP.
 */
class FakeModelServer {
  readonly requests: UpstreamRequest[] = [];
  private server!: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    const record: UpstreamRequest = { authorization: req.headers.authorization, body: JSON.parse(raw), closedEarly: false };
    this.requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.closedEarly = true;
    });
    const messages = record.body.messages;
    const question = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const toolResults = messages.filter((m) => m.role === 'tool');

    if (question.includes('[unauthorized]')) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Incorrect API key provided: sk-…', type: 'invalid_request_error' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (delta: Delta, finish: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: record.body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    const done = () => res.end('data: [DONE]\n\n');

    if (question.includes('[hang]')) {
      send({ content: 'Let me think' });
      return; // never ends: only the caller's abort closes it
    }
    if (question.includes('[always tools]') && record.body.tool_choice !== 'none') {
      send({ tool_calls: [{ index: 0, id: `call_${this.requests.length}`, type: 'function', function: { name: 'whats_down', arguments: '{}' } }] }, 'tool_calls');
      done();
      return;
    }
    if (question.includes('[bad tools]') && toolResults.length === 0) {
      send({
        tool_calls: [
          { index: 0, id: 'call_bad_json', type: 'function', function: { name: 'get_incident', arguments: '{"incident": ' } },
          { index: 1, id: 'call_unknown', type: 'function', function: { name: 'delete_everything', arguments: '{}' } },
        ],
      });
      send({}, 'tool_calls');
      done();
      return;
    }
    if (question.includes('open incidents') && toolResults.length === 0) {
      // One tool call, its arguments split over two chunks the way real servers stream them.
      send({ tool_calls: [{ index: 0, id: 'call_abc', type: 'function', function: { name: 'list_open_incidents', arguments: '{"lim' } }] });
      send({ tool_calls: [{ index: 0, function: { arguments: 'it": 5}' } }] });
      send({}, 'tool_calls');
      done();
      return;
    }
    // Answer from what the tools returned (or say there was nothing).
    const names = toolResults.flatMap((m) => {
      const output = JSON.parse(m.content ?? '{}');
      return (output.incidents ?? []).map((i: { name: string }) => i.name);
    });
    const errors = toolResults.map((m) => JSON.parse(m.content ?? '{}').error).filter(Boolean);
    const answer = names.length > 0 ? `Open: ${names.join(', ')}.` : errors.length > 0 ? `Tool errors: ${errors.join(' | ')}` : 'Nothing to report.';
    for (const piece of answer.match(/.{1,8}/gs) ?? []) send({ content: piece });
    send({}, 'stop');
    done();
  }
}

describe('AI agent stream, openai-compatible provider against a local chat-completions server', () => {
  const model = new FakeModelServer();
  let server: TestServer;
  let alpha: TestAccount;
  let bravo: TestAccount;

  async function openIncident(account: TestAccount, name: string) {
    const service = await server.http.post('/v1/status-pages/services', { name: `${name} service` }, { key: account.key });
    const incident = await server.http.post(
      '/v1/status-pages/incidents',
      { name, severity: 'CRITICAL', services: [{ id: service.body.id }], incidentUpdates: [{ description: 'Investigating' }] },
      { key: account.key },
    );
    expect(incident.status).toBe(201);
    return incident.body as { id: string; name: string };
  }

  beforeAll(async () => {
    const baseUrl = await model.start();
    server = await startTestServer({
      env: { AI_PROVIDER: 'openai-compatible', AI_BASE_URL: baseUrl, AI_API_KEY: 'upstream-secret-key', AI_MODEL: 'vigil-test-model', VIGIL_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    alpha = await server.account('Alpha');
    bravo = await server.account('Bravo');
    await openIncident(alpha, 'Alpha payments down');
    await openIncident(bravo, 'Bravo secret outage');
  });
  afterAll(async () => {
    await server.close();
    await model.stop();
  });

  const since = () => model.requests.length;

  it('runs the tool loop over HTTP: tool call → account-scoped tool → result to the model → streamed answer', async () => {
    const first = since();
    const answer = await askAgent(server.url, alpha.id, alpha.key, 'Which open incidents do we have?');
    expect(answer.status).toBe(200);
    expect(answer.errors).toEqual([]);
    expect(answer.text).toBe('Open: Alpha payments down.');

    // Exactly the stream the AI SDK expects around a tool round.
    const types = answer.chunks.map((c) => c.type);
    expect(types.slice(0, 5)).toEqual(['start', 'start-step', 'tool-input-available', 'tool-output-available', 'finish-step']);
    expect(types.slice(5, 7)).toEqual(['start-step', 'text-start']);
    expect(types.slice(-3)).toEqual(['text-end', 'finish-step', 'finish']);
    expect(answer.chunks[answer.chunks.length - 1]).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(answer.chunks.filter((c) => c.type === 'text-delta').length).toBeGreaterThan(1);
    const [tool] = toolParts(answer);
    expect(tool).toMatchObject({ name: 'list_open_incidents', state: 'output-available', input: { limit: 5 } });
    expect(tool.output.incidents.map((i: { name: string }) => i.name)).toEqual(['Alpha payments down']);

    // What went upstream: the key, the model, every tool, the system prompt, then the tool result.
    const calls = model.requests.slice(first);
    expect(calls).toHaveLength(2);
    expect(calls[0].authorization).toBe('Bearer upstream-secret-key');
    expect(calls[0].body).toMatchObject({ model: 'vigil-test-model', stream: true });
    expect(calls[0].body.tool_choice).toBeUndefined();
    expect(calls[0].body.tools.map((t) => t.function.name).sort()).toEqual(
      ['check_availability', 'draft_incident_update', 'failures_in_window', 'get_incident', 'list_checks', 'list_incidents', 'list_open_incidents', 'recent_heartbeat_events', 'status_page_summary', 'whats_down'].sort(),
    );
    expect(calls[0].body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(calls[0].body.messages[0].content).toContain('read-only');
    const second = calls[1].body.messages;
    expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(second[2].tool_calls).toEqual([{ id: 'call_abc', type: 'function', function: { name: 'list_open_incidents', arguments: '{"limit": 5}' } }]);
    expect(second[3].tool_call_id).toBe('call_abc');
    expect(second[3].content).toContain('Alpha payments down');
    // The other account's incident never reaches the model or the client.
    expect(JSON.stringify(calls.map((c) => c.body))).not.toContain('Bravo');
    expect(answer.raw).not.toContain('Bravo');
  });

  it('scopes the tools to the account in the path', async () => {
    const answer = await askAgent(server.url, bravo.id, bravo.key, 'Which open incidents do we have?');
    expect(answer.text).toBe('Open: Bravo secret outage.');
    expect(answer.raw).not.toContain('Alpha');
  });

  it('text/plain works with this provider too', async () => {
    const response = await fetch(server.url + agentPath(alpha.id), {
      method: 'POST',
      headers: { authorization: `Bearer ${alpha.key}`, 'content-type': 'application/json', accept: 'text/plain' },
      body: JSON.stringify({ messages: [{ role: 'user', parts: [{ type: 'text', text: 'Which open incidents do we have?' }] }] }),
    });
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('Open: Alpha payments down.');
  });

  it('sends bad tool calls back to the model as errors and goes on', async () => {
    const answer = await askAgent(server.url, alpha.id, alpha.key, 'Do something [bad tools]');
    expect(answer.status).toBe(200);
    expect(toolParts(answer).map((t) => [t.name, t.state, t.errorText])).toEqual([
      ['get_incident', 'output-error', 'The tool arguments were not valid JSON'],
      ['delete_everything', 'output-error', 'There is no tool named "delete_everything"'],
    ]);
    expect(answer.text).toBe('Tool errors: The tool arguments were not valid JSON | There is no tool named "delete_everything"');
  });

  it('caps the tool loop: after 8 rounds one last round with tools switched off', async () => {
    const first = since();
    const answer = await askAgent(server.url, alpha.id, alpha.key, 'Loop forever [always tools]');
    expect(answer.status).toBe(200);
    const calls = model.requests.slice(first);
    expect(calls).toHaveLength(9);
    expect(calls.slice(0, 8).every((c) => c.body.tool_choice === undefined)).toBe(true);
    expect(calls[8].body.tool_choice).toBe('none');
    expect(toolParts(answer)).toHaveLength(8);
    expect(answer.chunks.filter((c) => c.type === 'start-step')).toHaveLength(9);
    expect(answer.chunks[answer.chunks.length - 1]).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  it('an upstream error after the start is an error event, and the stream ends', async () => {
    const answer = await askAgent(server.url, alpha.id, alpha.key, 'Hello [unauthorized]');
    expect(answer.status).toBe(200);
    expect(answer.chunks.map((c) => c.type)).toEqual(['start', 'start-step', 'error']);
    expect(answer.chunks[2]).toEqual({ type: 'error', errorText: 'The AI provider answered with HTTP 401' });
    expect(answer.errors).toEqual(['The AI provider answered with HTTP 401']);
    expect(answer.raw.endsWith('data: {"type":"error","errorText":"The AI provider answered with HTTP 401"}\n\ndata: [DONE]\n\n')).toBe(true);
    // Nothing of the upstream's own message (which may quote a key) reaches the client.
    expect(answer.raw).not.toContain('Incorrect API key');

    const text = await fetch(server.url + agentPath(alpha.id), {
      method: 'POST',
      headers: { authorization: `Bearer ${alpha.key}`, 'content-type': 'application/json', accept: 'text/plain' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Hello [unauthorized]' }] }),
    });
    expect(text.status).toBe(200);
    expect(await text.text()).toBe('Error: The AI provider answered with HTTP 401\n');
  });

  it('a client that disconnects cancels the upstream request', async () => {
    const first = since();
    // A plain node:http client on its own socket, so the disconnect is exactly one closed connection.
    const body = JSON.stringify({ messages: [{ role: 'user', content: 'Think hard [hang]' }] });
    const request = httpRequest(server.url + agentPath(alpha.id), {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${alpha.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const seen = await new Promise<string>((resolve, reject) => {
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk) => {
          text += chunk;
          if (text.includes('Let me think')) resolve(text);
        });
        response.on('end', () => reject(new Error(`stream ended early: ${text}`)));
      });
      request.on('error', reject);
      request.end(body);
    });
    expect(seen).toContain('"type":"start"');
    const upstream = model.requests[first];
    expect(upstream.closedEarly).toBe(false);
    request.destroy();
    const deadline = Date.now() + 5000;
    while (!upstream.closedEarly && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(upstream.closedEarly).toBe(true);
    // The server is fine afterwards.
    const next = await askAgent(server.url, alpha.id, alpha.key, 'Which open incidents do we have?');
    expect(next.text).toBe('Open: Alpha payments down.');
  });
});
