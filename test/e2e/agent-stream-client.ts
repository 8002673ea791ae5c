import { parseJsonEventStream, readUIMessageStream, UIMessage, UIMessageChunk, uiMessageChunkSchema } from 'ai';

/** What one call of endpoint 11 gave, read the way an AI SDK client reads it. */
export interface AgentAnswer {
  status: number;
  headers: Headers;
  /** The body exactly as it came over the wire. */
  raw: string;
  /** Every chunk, as the AI SDK's own schema parsed it. */
  chunks: UIMessageChunk[];
  /** The assistant message the AI SDK's readUIMessageStream built from them. */
  message: UIMessage | undefined;
  /** The text parts of that message. */
  text: string;
  /** Errors the AI SDK reader reported (error chunks). */
  errors: string[];
  /** The JSON body of a non-streamed answer (errors). */
  json: any;
}

export type Message = Record<string, unknown>;

export interface AskOptions {
  headers?: Record<string, string>;
  /** Sent as is instead of `{messages}`. */
  body?: unknown;
}

export const agentPath = (accountId: string) => `/accounts/${accountId}/ai/agents/stream`;

/**
 * POSTs to the agent and, for a stream, parses it with the AI SDK's client-side pieces:
 * parseJsonEventStream + uiMessageChunkSchema (what its chat transport does), then readUIMessageStream.
 */
export async function askAgent(baseUrl: string, accountId: string, key: string | null, messages: Message[] | string, options: AskOptions = {}): Promise<AgentAnswer> {
  const list = typeof messages === 'string' ? [{ role: 'user', content: messages }] : messages;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const response = await fetch(baseUrl + agentPath(accountId), {
    method: 'POST',
    headers,
    body: JSON.stringify(options.body !== undefined ? options.body : { messages: list }),
  });
  const answer: AgentAnswer = { status: response.status, headers: response.headers, raw: '', chunks: [], message: undefined, text: '', errors: [], json: undefined };
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    answer.raw = await response.text();
    answer.text = answer.raw;
    try {
      answer.json = JSON.parse(answer.raw);
    } catch {
      // plain text
    }
    return answer;
  }

  const [wire, sdk] = response.body!.tee();
  const rawText = new Response(wire).text();
  const chunkStream = parseJsonEventStream({ stream: sdk, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream<any, UIMessageChunk>({
      transform(part, controller) {
        if (!part.success) throw part.error;
        answer.chunks.push(part.value);
        controller.enqueue(part.value);
      },
    }),
  );
  for await (const message of readUIMessageStream({ stream: chunkStream, onError: (error) => answer.errors.push(String((error as Error).message ?? error)) })) {
    answer.message = message as UIMessage;
  }
  answer.raw = await rawText;
  answer.text = (answer.message?.parts ?? [])
    .filter((part): part is { type: 'text'; text: string } => part.type === 'text')
    .map((part) => part.text)
    .join('');
  return answer;
}

/** The tool parts of the message the AI SDK built: `tool-<name>` with their state, input and output. */
export function toolParts(answer: AgentAnswer): { name: string; state: string; input: any; output: any; errorText?: string }[] {
  return (answer.message?.parts ?? [])
    .filter((part) => part.type.startsWith('tool-'))
    .map((part: any) => ({ name: part.type.slice('tool-'.length), state: part.state, input: part.input, output: part.output, errorText: part.errorText }));
}
