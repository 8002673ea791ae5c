import { AiProviderName } from '../../../platform/src/config';
import { AgentEvent } from '../domain/agent-events';
import { AgentMessage } from '../domain/agent-messages';
import { AgentToolbox } from '../domain/agent-tools';

export interface AgentRunInput {
  accountId: string;
  messages: AgentMessage[];
  /** Read-only tools already bound to the account. */
  tools: AgentToolbox;
  now: Date;
  /** Aborted when the client goes away: stop work and cancel any upstream request. */
  signal: AbortSignal;
}

/** A way of answering: the built-in rules or a chat-completions model. */
export interface AgentProvider {
  readonly name: AiProviderName;
  /**
   * Answers the conversation as agent events. Throws AgentFailure for errors the client may read;
   * anything else is reported as an internal error.
   */
  run(input: AgentRunInput): AsyncIterable<AgentEvent>;
}

export const AGENT_PROVIDER = Symbol('AGENT_PROVIDER');
