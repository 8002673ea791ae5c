import { AgentEvent, AgentFailure, FinishReason } from './agent-events';

/** The chunks of the AI SDK UI message stream protocol (v1) that Vigil sends. */
export type UiMessageChunk =
  | { type: 'start'; messageId: string }
  | { type: 'start-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string }
  | { type: 'finish-step' }
  | { type: 'finish'; finishReason: FinishReason }
  | { type: 'error'; errorText: string };

interface ChunkOptions {
  messageId: string;
  /** Called with anything a provider threw that was not an AgentFailure (to be logged). */
  onUnexpectedError?: (error: unknown) => void;
  /** Text shown for such an error: it must say nothing of internals. */
  unexpectedErrorText?: string;
}

/**
 * Turns provider events into protocol chunks: `start` first (before the provider does any work, so
 * the first byte does not wait for data), text parts opened and closed around each run of text,
 * steps balanced, `finish` last. Whatever the provider throws becomes one `error` chunk, and the
 * stream ends there.
 */
export async function* toUiMessageChunks(events: AsyncIterable<AgentEvent>, options: ChunkOptions): AsyncGenerator<UiMessageChunk> {
  yield { type: 'start', messageId: options.messageId };
  let textId: string | null = null;
  let texts = 0;
  let inStep = false;
  let finished = false;
  const closeText = function* (): Generator<UiMessageChunk> {
    if (textId !== null) yield { type: 'text-end', id: textId };
    textId = null;
  };
  const openStep = function* (): Generator<UiMessageChunk> {
    if (!inStep) yield { type: 'start-step' };
    inStep = true;
  };
  const closeStep = function* (): Generator<UiMessageChunk> {
    yield* closeText();
    if (inStep) yield { type: 'finish-step' };
    inStep = false;
  };
  try {
    for await (const event of events) {
      if (finished) break;
      switch (event.type) {
        case 'step-start':
          yield* closeStep();
          yield* openStep();
          break;
        case 'step-finish':
          yield* closeStep();
          break;
        case 'text-delta':
          if (event.delta === '') break;
          yield* openStep();
          if (textId === null) {
            textId = `text-${++texts}`;
            yield { type: 'text-start', id: textId };
          }
          yield { type: 'text-delta', id: textId, delta: event.delta };
          break;
        case 'tool-call':
          yield* openStep();
          yield* closeText();
          yield { type: 'tool-input-available', toolCallId: event.toolCallId, toolName: event.toolName, input: event.input };
          break;
        case 'tool-result':
          yield { type: 'tool-output-available', toolCallId: event.toolCallId, output: event.output };
          break;
        case 'tool-error':
          yield { type: 'tool-output-error', toolCallId: event.toolCallId, errorText: event.errorText };
          break;
        case 'finish':
          yield* closeStep();
          yield { type: 'finish', finishReason: event.reason };
          finished = true;
          break;
      }
    }
    if (!finished) {
      yield* closeStep();
      yield { type: 'finish', finishReason: 'stop' };
    }
  } catch (error) {
    if (error instanceof AgentFailure) {
      yield { type: 'error', errorText: error.message };
    } else {
      options.onUnexpectedError?.(error);
      yield { type: 'error', errorText: options.unexpectedErrorText ?? 'The agent failed' };
    }
  }
}
