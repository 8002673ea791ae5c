import { ValidationError, ViolationDetail } from '../../../core/src/errors';

const MESSAGE_ROLES = ['system', 'user', 'assistant'] as const;
type MessageRole = (typeof MESSAGE_ROLES)[number];

/** One message of the conversation, whatever shape it came in: its role and its text. */
export interface AgentMessage {
  role: MessageRole;
  text: string;
}

const MIN_MESSAGES = 1;
export const MAX_MESSAGES = 50;
/** All text of a request together, in UTF-8 bytes ("100 KB" of the contract, decimal like its other KB). */
export const MAX_TEXT_BYTES = 100_000;

/**
 * Parts the AI SDK itself puts into assistant messages (steps, tool calls, reasoning, sources):
 * a client that sends its history back must not be refused, so they are accepted and skipped.
 */
function isSdkAssistantPart(type: string): boolean {
  return (
    ['step-start', 'reasoning', 'source-url', 'source-document', 'file', 'dynamic-tool'].includes(type) ||
    type.startsWith('tool-') ||
    type.startsWith('data-')
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function textOfMessage(raw: Record<string, unknown>, role: MessageRole | null, at: string, details: ViolationDetail[]): string | null {
  if (raw.parts !== undefined) {
    if (!Array.isArray(raw.parts)) {
      details.push({ path: `${at}.parts`, message: 'parts must be an array' });
      return null;
    }
    const texts: string[] = [];
    raw.parts.forEach((part: unknown, j: number) => {
      const partAt = `${at}.parts[${j}]`;
      if (!isObject(part)) return details.push({ path: partAt, message: 'a part must be an object' });
      if (typeof part.type !== 'string') return details.push({ path: `${partAt}.type`, message: 'type must be a string' });
      if (part.type === 'text') {
        if (typeof part.text !== 'string') return details.push({ path: `${partAt}.text`, message: 'text must be a string' });
        texts.push(part.text);
        return;
      }
      if (role === 'assistant' && isSdkAssistantPart(part.type)) return;
      details.push({ path: `${partAt}.type`, message: `part type "${part.type.slice(0, 40)}" is not supported; only text parts are` });
    });
    return texts.join('\n');
  }
  if (raw.content === undefined) {
    details.push({ path: `${at}.content`, message: 'a message needs content (a string) or parts (an array of text parts)' });
    return null;
  }
  if (typeof raw.content !== 'string') {
    details.push({ path: `${at}.content`, message: 'content must be a string' });
    return null;
  }
  return raw.content;
}

/**
 * Validates the body of endpoint 11 and reduces it to role + text per message. Both shapes are
 * accepted: `{role, content}` and the AI SDK UI message `{id?, role, parts: [{type: "text", text}]}`.
 * Every violated rule is reported at once, before anything is streamed.
 */
export function parseAgentRequest(body: unknown): AgentMessage[] {
  if (!isObject(body)) throw new ValidationError('Body must be a JSON object', [{ path: '', message: 'expected a JSON object' }]);
  const { messages } = body;
  if (messages === undefined || messages === null) throw ValidationError.of([{ path: 'messages', message: 'messages is required' }]);
  if (!Array.isArray(messages)) throw ValidationError.of([{ path: 'messages', message: 'messages must be an array' }]);
  if (messages.length < MIN_MESSAGES) throw ValidationError.of([{ path: 'messages', message: 'messages must hold at least 1 message' }]);
  if (messages.length > MAX_MESSAGES) {
    throw ValidationError.of([{ path: 'messages', message: `messages may hold at most ${MAX_MESSAGES} messages, got ${messages.length}` }]);
  }

  const details: ViolationDetail[] = [];
  const parsed: AgentMessage[] = [];
  let bytes = 0;
  messages.forEach((raw: unknown, i: number) => {
    const at = `messages[${i}]`;
    if (!isObject(raw)) return details.push({ path: at, message: 'a message must be an object' });
    let role: MessageRole | null = null;
    if (raw.role === undefined) details.push({ path: `${at}.role`, message: 'role is required' });
    else if (typeof raw.role !== 'string' || !(MESSAGE_ROLES as readonly string[]).includes(raw.role)) {
      details.push({ path: `${at}.role`, message: `role must be one of ${MESSAGE_ROLES.join(', ')}` });
    } else role = raw.role as MessageRole;
    if (raw.id !== undefined && raw.id !== null && typeof raw.id !== 'string') details.push({ path: `${at}.id`, message: 'id must be a string' });
    const text = textOfMessage(raw, role, at, details);
    if (text !== null) bytes += Buffer.byteLength(text, 'utf8');
    if (role !== null && text !== null) parsed.push({ role, text });
  });

  const lastAt = `messages[${messages.length - 1}]`;
  const last = messages[messages.length - 1] as unknown;
  if (isObject(last) && typeof last.role === 'string' && last.role !== 'user') {
    details.push({ path: `${lastAt}.role`, message: 'the last message must come from the user' });
  } else if (parsed.length === messages.length && parsed[parsed.length - 1].text.trim() === '') {
    details.push({ path: lastAt, message: 'the last message must have text' });
  }
  if (bytes > MAX_TEXT_BYTES) {
    details.push({ path: 'messages', message: `all text together may be at most ${MAX_TEXT_BYTES} bytes (UTF-8), got ${bytes}` });
  }
  if (details.length > 0) throw ValidationError.of(details);
  return parsed;
}
