/** Why a run ended, in the AI SDK's words. */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/**
 * What a provider emits while it answers: steps, text as it is produced, tool calls and their
 * results. The HTTP layer turns these into the AI SDK UI message stream (or plain text).
 */
export type AgentEvent =
  | { type: 'step-start' }
  | { type: 'step-finish' }
  | { type: 'text-delta'; delta: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-result'; toolCallId: string; output: unknown }
  | { type: 'tool-error'; toolCallId: string; errorText: string }
  | { type: 'finish'; reason: FinishReason };

/** An error a provider may show to the client as it is (no internals in its message). */
export class AgentFailure extends Error {
  constructor(message: string, cause?: unknown) {
    super(message);
    this.name = 'AgentFailure';
    this.cause = cause;
  }
}
