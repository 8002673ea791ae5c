import { ValidationError, ViolationDetail } from '../../../core/src/errors';
import { MAX_MESSAGES, MAX_TEXT_BYTES, parseAgentRequest } from './agent-messages';

function violations(body: unknown): ViolationDetail[] {
  try {
    parseAgentRequest(body);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).details;
  }
  throw new Error('expected a ValidationError');
}

const user = (content: string) => ({ role: 'user', content });

describe('parseAgentRequest', () => {
  describe('accepts', () => {
    it('{role, content} messages', () => {
      expect(
        parseAgentRequest({
          messages: [
            { role: 'system', content: 'Be brief' },
            user('What is down?'),
            { role: 'assistant', content: 'Nothing.' },
            user('And incidents?'),
          ],
        }),
      ).toEqual([
        { role: 'system', text: 'Be brief' },
        { role: 'user', text: 'What is down?' },
        { role: 'assistant', text: 'Nothing.' },
        { role: 'user', text: 'And incidents?' },
      ]);
    });

    it('AI SDK UI messages, joining their text parts', () => {
      expect(
        parseAgentRequest({ messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'What is' }, { type: 'text', text: 'down?' }] }] }),
      ).toEqual([{ role: 'user', text: 'What is\ndown?' }]);
    });

    it('both shapes mixed, ignoring unknown fields', () => {
      expect(
        parseAgentRequest({
          messages: [
            { role: 'assistant', parts: [{ type: 'text', text: 'Hi' }], metadata: { x: 1 } },
            { role: 'user', content: 'Open incidents?', createdAt: '2026-01-01' },
          ],
          model: 'ignored',
          trigger: 'submit-message',
        }),
      ).toEqual([
        { role: 'assistant', text: 'Hi' },
        { role: 'user', text: 'Open incidents?' },
      ]);
    });

    it("the AI SDK's own parts in assistant history (steps, tool calls, reasoning), skipping them", () => {
      const history = {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'tool-whats_down', toolCallId: 'c1', state: 'output-available', input: {}, output: {} },
          { type: 'dynamic-tool', toolName: 'x', toolCallId: 'c2', state: 'output-available' },
          { type: 'reasoning', text: 'thinking' },
          { type: 'data-progress', data: {} },
          { type: 'text', text: 'Nothing is down.' },
        ],
      };
      expect(parseAgentRequest({ messages: [user('a'), history, user('b')] })[1]).toEqual({ role: 'assistant', text: 'Nothing is down.' });
    });

    it(`exactly ${MAX_MESSAGES} messages and exactly ${MAX_TEXT_BYTES} bytes of text`, () => {
      const messages = Array.from({ length: MAX_MESSAGES }, () => user('x'.repeat(MAX_TEXT_BYTES / MAX_MESSAGES)));
      expect(parseAgentRequest({ messages })).toHaveLength(MAX_MESSAGES);
    });
  });

  describe('refuses', () => {
    it.each([
      ['no body', undefined, ''],
      ['an array body', [user('x')], ''],
      ['a string body', 'hello', ''],
    ])('%s', (_name, body, path) => {
      expect(violations(body)).toEqual([{ path, message: 'expected a JSON object' }]);
    });

    it.each([
      ['no messages', {}, 'messages is required'],
      ['null messages', { messages: null }, 'messages is required'],
      ['messages not an array', { messages: { role: 'user', content: 'x' } }, 'messages must be an array'],
      ['an empty list', { messages: [] }, 'messages must hold at least 1 message'],
      ['51 messages', { messages: Array.from({ length: 51 }, () => user('x')) }, 'messages may hold at most 50 messages, got 51'],
    ])('%s', (_name, body, message) => {
      expect(violations(body)).toEqual([{ path: 'messages', message }]);
    });

    it('a bad role, a missing role, and a message that is not an object, all at once', () => {
      expect(violations({ messages: [{ role: 'tool', content: 'x' }, { content: 'y' }, 'hello', user('z')] })).toEqual([
        { path: 'messages[0].role', message: 'role must be one of system, user, assistant' },
        { path: 'messages[1].role', message: 'role is required' },
        { path: 'messages[2]', message: 'a message must be an object' },
      ]);
    });

    it('roles in another case', () => {
      expect(violations({ messages: [{ role: 'USER', content: 'x' }] })).toContainEqual({
        path: 'messages[0].role',
        message: 'role must be one of system, user, assistant',
      });
    });

    it('a last message not from the user', () => {
      expect(violations({ messages: [user('x'), { role: 'assistant', content: 'y' }] })).toEqual([
        { path: 'messages[1].role', message: 'the last message must come from the user' },
      ]);
      expect(violations({ messages: [{ role: 'system', content: 'y' }] })).toEqual([
        { path: 'messages[0].role', message: 'the last message must come from the user' },
      ]);
    });

    it('a last message without text', () => {
      expect(violations({ messages: [user('   ')] })).toEqual([{ path: 'messages[0]', message: 'the last message must have text' }]);
      expect(violations({ messages: [{ role: 'user', parts: [] }] })).toEqual([{ path: 'messages[0]', message: 'the last message must have text' }]);
    });

    it('content that is not a string, and a message with neither content nor parts', () => {
      expect(violations({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }, { role: 'user' }] })).toEqual([
        { path: 'messages[0].content', message: 'content must be a string' },
        { path: 'messages[1].content', message: 'a message needs content (a string) or parts (an array of text parts)' },
      ]);
    });

    it('malformed parts', () => {
      expect(
        violations({
          messages: [
            {
              id: 7,
              role: 'user',
              parts: [{ type: 'text' }, { type: 'text', text: 5 }, 'text', { text: 'no type' }, { type: 'image', url: 'x' }, { type: 'tool-x' }],
            },
            { role: 'user', parts: 'hello' },
          ],
        }),
      ).toEqual([
        { path: 'messages[0].id', message: 'id must be a string' },
        { path: 'messages[0].parts[0].text', message: 'text must be a string' },
        { path: 'messages[0].parts[1].text', message: 'text must be a string' },
        { path: 'messages[0].parts[2]', message: 'a part must be an object' },
        { path: 'messages[0].parts[3].type', message: 'type must be a string' },
        { path: 'messages[0].parts[4].type', message: 'part type "image" is not supported; only text parts are' },
        // Tool parts belong in assistant history only.
        { path: 'messages[0].parts[5].type', message: 'part type "tool-x" is not supported; only text parts are' },
        { path: 'messages[1].parts', message: 'parts must be an array' },
      ]);
    });

    it('more than 100 KB of text in all, counted in UTF-8 bytes', () => {
      const half = 'x'.repeat(MAX_TEXT_BYTES / 2);
      expect(violations({ messages: [user(half), user(`${half}y`)] })).toEqual([
        { path: 'messages', message: `all text together may be at most ${MAX_TEXT_BYTES} bytes (UTF-8), got ${MAX_TEXT_BYTES + 1}` },
      ]);
      // 50,000 two-byte characters are 100,000 bytes: one more is over.
      expect(violations({ messages: [user('é'.repeat(MAX_TEXT_BYTES / 2 + 1))] })[0].path).toBe('messages');
      expect(parseAgentRequest({ messages: [user('é'.repeat(MAX_TEXT_BYTES / 2))] })).toHaveLength(1);
    });
  });
});
