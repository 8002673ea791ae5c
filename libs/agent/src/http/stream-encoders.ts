import { UiMessageChunk } from '../domain/ui-message-chunks';

/** Headers of the AI SDK UI message stream, as its own server helpers send them. */
export const SSE_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-vercel-ai-ui-message-stream': 'v1',
  // Proxies such as nginx must pass each event on at once.
  'x-accel-buffering': 'no',
};

export const TEXT_HEADERS: Record<string, string> = {
  'content-type': 'text/plain; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

export const SSE_DONE = 'data: [DONE]\n\n';

/** One chunk as one SSE event. JSON.stringify escapes every newline, so a chunk is always one `data:` line. */
export function sseEvent(chunk: UiMessageChunk): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** An SSE comment: clients (the AI SDK's parser too) ignore it; proxies see a live connection. */
export const SSE_KEEP_ALIVE = ': keep-alive\n\n';
const KEEP_ALIVE_MS = 15_000;

/**
 * The whole SSE body: every chunk, then `[DONE]`, like the AI SDK's own JsonToSseTransformStream.
 * While a chunk takes longer than `keepAliveMs` (a slow model, a long tool round), a comment is sent
 * so that proxies with idle timeouts keep the connection.
 */
export async function* encodeSse(chunks: AsyncIterable<UiMessageChunk>, keepAliveMs = KEEP_ALIVE_MS): AsyncGenerator<string> {
  const iterator = chunks[Symbol.asyncIterator]();
  try {
    let pending = iterator.next();
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<'idle'>((resolve) => (timer = setTimeout(() => resolve('idle'), keepAliveMs)));
      const result = await Promise.race([pending, idle]);
      clearTimeout(timer);
      if (result === 'idle') {
        yield SSE_KEEP_ALIVE;
        continue;
      }
      if (result.done) break;
      yield sseEvent(result.value);
      pending = iterator.next();
    }
  } finally {
    // The client left mid-stream: let the provider's generators run their cleanup.
    void iterator.return?.(undefined);
  }
  yield SSE_DONE;
}

/** `Accept: text/plain`: the answer's text alone; an error after the start ends it with one line saying so. */
export async function* encodeText(chunks: AsyncIterable<UiMessageChunk>): AsyncGenerator<string> {
  let wroteText = false;
  for await (const chunk of chunks) {
    if (chunk.type === 'text-delta') {
      wroteText = true;
      yield chunk.delta;
    } else if (chunk.type === 'error') {
      yield `${wroteText ? '\n\n' : ''}Error: ${chunk.errorText}\n`;
    }
  }
}

/** Parses an Accept header into media types and their q values. */
function acceptQuality(accept: string, type: string): number {
  let best = -1;
  for (const range of accept.split(',')) {
    const [media, ...params] = range.trim().toLowerCase().split(';');
    if (media.trim() !== type) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    if (Number.isFinite(value)) best = Math.max(best, value);
  }
  return best;
}

/** Plain text only when the client asks for text/plain and prefers it to text/event-stream; SSE otherwise. */
export function wantsPlainText(accept: string | string[] | undefined): boolean {
  const header = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  const text = acceptQuality(header, 'text/plain');
  return text > 0 && text > acceptQuality(header, 'text/event-stream');
}
