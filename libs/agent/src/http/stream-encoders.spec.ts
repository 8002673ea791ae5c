import { AgentEvent, AgentFailure } from '../domain/agent-events';
import { toUiMessageChunks, UiMessageChunk } from '../domain/ui-message-chunks';
import { encodeSse, encodeText, SSE_DONE, SSE_KEEP_ALIVE, sseEvent, wantsPlainText } from './stream-encoders';

async function* from<T>(items: T[], thenThrow?: unknown): AsyncGenerator<T> {
  for (const item of items) yield item;
  if (thenThrow !== undefined) throw thenThrow;
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const chunksOf = (events: AgentEvent[], thenThrow?: unknown, onUnexpectedError?: (e: unknown) => void) =>
  collect(toUiMessageChunks(from(events, thenThrow), { messageId: 'm1', onUnexpectedError, unexpectedErrorText: 'The agent failed (request id r1)' }));

describe('toUiMessageChunks', () => {
  it('frames text with start, a step, a text part and finish', async () => {
    expect(
      await chunksOf([{ type: 'step-start' }, { type: 'text-delta', delta: 'Hel' }, { type: 'text-delta', delta: 'lo' }, { type: 'finish', reason: 'stop' }]),
    ).toEqual([
      { type: 'start', messageId: 'm1' },
      { type: 'start-step' },
      { type: 'text-start', id: 'text-1' },
      { type: 'text-delta', id: 'text-1', delta: 'Hel' },
      { type: 'text-delta', id: 'text-1', delta: 'lo' },
      { type: 'text-end', id: 'text-1' },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  it('closes the text part before a tool call and opens a new one after it; balances steps', async () => {
    expect(
      await chunksOf([
        { type: 'text-delta', delta: 'Let me look.' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'whats_down', input: {} },
        { type: 'tool-result', toolCallId: 'c1', output: { failingChecks: [] } },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'get_incident', input: { incident: 'x' } },
        { type: 'tool-error', toolCallId: 'c2', errorText: 'not found' },
        { type: 'step-start' },
        { type: 'text-delta', delta: 'All good.' },
      ]),
    ).toEqual([
      { type: 'start', messageId: 'm1' },
      { type: 'start-step' },
      { type: 'text-start', id: 'text-1' },
      { type: 'text-delta', id: 'text-1', delta: 'Let me look.' },
      { type: 'text-end', id: 'text-1' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'whats_down', input: {} },
      { type: 'tool-output-available', toolCallId: 'c1', output: { failingChecks: [] } },
      { type: 'tool-input-available', toolCallId: 'c2', toolName: 'get_incident', input: { incident: 'x' } },
      { type: 'tool-output-error', toolCallId: 'c2', errorText: 'not found' },
      { type: 'finish-step' },
      { type: 'start-step' },
      { type: 'text-start', id: 'text-2' },
      { type: 'text-delta', id: 'text-2', delta: 'All good.' },
      { type: 'text-end', id: 'text-2' },
      { type: 'finish-step' },
      // The provider ended without a finish: one is added.
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  it('skips empty deltas and stops at finish', async () => {
    const chunks = await chunksOf([{ type: 'text-delta', delta: '' }, { type: 'finish', reason: 'length' }, { type: 'text-delta', delta: 'late' }]);
    expect(chunks).toEqual([{ type: 'start', messageId: 'm1' }, { type: 'finish', finishReason: 'length' }]);
  });

  it('turns an AgentFailure into one error chunk with its message, and ends there', async () => {
    const chunks = await chunksOf([{ type: 'step-start' }, { type: 'text-delta', delta: 'Hi' }], new AgentFailure('The AI provider answered with HTTP 401'));
    expect(chunks.slice(-1)).toEqual([{ type: 'error', errorText: 'The AI provider answered with HTTP 401' }]);
    expect(chunks.map((c) => c.type)).toEqual(['start', 'start-step', 'text-start', 'text-delta', 'error']);
  });

  it('hides anything else behind a fixed text and reports it', async () => {
    const seen: unknown[] = [];
    const failure = new Error('SQLITE_BUSY at /var/lib/vigil/vigil.db');
    const chunks = await chunksOf([], failure, (e) => seen.push(e));
    expect(chunks).toEqual([
      { type: 'start', messageId: 'm1' },
      { type: 'error', errorText: 'The agent failed (request id r1)' },
    ]);
    expect(seen).toEqual([failure]);
  });

  it('emits start before the provider does anything', async () => {
    let started = false;
    async function* slow(): AsyncGenerator<AgentEvent> {
      started = true;
      yield { type: 'finish', reason: 'stop' };
    }
    const iterator = toUiMessageChunks(slow(), { messageId: 'm2' });
    expect((await iterator.next()).value).toEqual({ type: 'start', messageId: 'm2' });
    expect(started).toBe(false);
  });
});

describe('SSE encoding', () => {
  it('writes one data line per chunk, then [DONE]', async () => {
    const chunks: UiMessageChunk[] = [
      { type: 'start', messageId: 'm1' },
      { type: 'text-delta', id: 'text-1', delta: 'line one\nline two\r\n"quoted"' },
      { type: 'finish', finishReason: 'stop' },
    ];
    const body = (await collect(encodeSse(from(chunks)))).join('');
    expect(body).toBe(
      'data: {"type":"start","messageId":"m1"}\n\n' +
        'data: {"type":"text-delta","id":"text-1","delta":"line one\\nline two\\r\\n\\"quoted\\""}\n\n' +
        'data: {"type":"finish","finishReason":"stop"}\n\n' +
        'data: [DONE]\n\n',
    );
    // Every event is a single line: newlines inside text never break the framing.
    for (const event of body.split('\n\n').filter(Boolean)) expect(event).toMatch(/^data: [^\n]+$/);
    expect(SSE_DONE).toBe('data: [DONE]\n\n');
    expect(sseEvent({ type: 'start-step' })).toBe('data: {"type":"start-step"}\n\n');
  });
});

describe('SSE keep-alive', () => {
  it('sends a comment while the next chunk is slow, never between quick ones', async () => {
    // The slow chunk waits for the test, not for a clock: only the keep-alive timer can answer meanwhile.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    async function* slow(): AsyncGenerator<UiMessageChunk> {
      yield { type: 'start', messageId: 'm1' };
      await released;
      yield { type: 'finish', finishReason: 'stop' };
    }
    const encoder = encodeSse(slow(), 10);
    expect((await encoder.next()).value).toBe('data: {"type":"start","messageId":"m1"}\n\n');
    expect((await encoder.next()).value).toBe(SSE_KEEP_ALIVE);
    expect((await encoder.next()).value).toBe(SSE_KEEP_ALIVE);
    release();
    const rest: string[] = [];
    for (let next = await encoder.next(); !next.done; next = await encoder.next()) rest.push(next.value);
    // A keep-alive may still have been due as the chunk arrived; after it, only the chunk and the end.
    expect(rest.filter((part) => part !== SSE_KEEP_ALIVE)).toEqual(['data: {"type":"finish","finishReason":"stop"}\n\n', SSE_DONE]);
    expect(rest.slice(-2)).toEqual(['data: {"type":"finish","finishReason":"stop"}\n\n', SSE_DONE]);
    expect(SSE_KEEP_ALIVE.startsWith(':')).toBe(true);

    const quick = await collect(encodeSse(from<UiMessageChunk>([{ type: 'start', messageId: 'm1' }, { type: 'finish', finishReason: 'stop' }]), 50));
    expect(quick).not.toContain(SSE_KEEP_ALIVE);
  });

  it('lets the source clean up when the client stops reading', async () => {
    let cleaned = false;
    async function* source(): AsyncGenerator<UiMessageChunk> {
      try {
        yield { type: 'start', messageId: 'm1' };
        yield { type: 'start-step' };
      } finally {
        cleaned = true;
      }
    }
    const encoder = encodeSse(source(), 50);
    await encoder.next();
    await encoder.return(undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(cleaned).toBe(true);
  });
});

describe('text encoding', () => {
  it('writes the text deltas alone', async () => {
    const chunks: UiMessageChunk[] = [
      { type: 'start', messageId: 'm1' },
      { type: 'tool-input-available', toolCallId: 'c', toolName: 't', input: {} },
      { type: 'text-delta', id: 'text-1', delta: 'Nothing ' },
      { type: 'text-delta', id: 'text-1', delta: 'is down.' },
      { type: 'finish', finishReason: 'stop' },
    ];
    expect(await collect(encodeText(from(chunks)))).toEqual(['Nothing ', 'is down.']);
  });

  it('ends with an error line after an error', async () => {
    const chunks: UiMessageChunk[] = [
      { type: 'text-delta', id: 'text-1', delta: 'Partial' },
      { type: 'error', errorText: 'Could not reach the AI provider' },
    ];
    expect((await collect(encodeText(from(chunks)))).join('')).toBe('Partial\n\nError: Could not reach the AI provider\n');
  });
});

describe('wantsPlainText', () => {
  it.each<[string | undefined, boolean]>([
    [undefined, false],
    ['*/*', false],
    ['application/json', false],
    ['text/event-stream', false],
    ['text/plain', true],
    ['TEXT/PLAIN; charset=utf-8', true],
    ['text/plain, text/event-stream', false],
    ['text/event-stream;q=0.5, text/plain', true],
    ['text/plain;q=0.4, text/event-stream;q=0.9', false],
    ['text/plain;q=0', false],
  ])('%s → %s', (accept, expected) => {
    expect(wantsPlainText(accept)).toBe(expected);
  });
});
