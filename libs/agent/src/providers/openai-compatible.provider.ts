import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { AgentEvent, AgentFailure, FinishReason } from '../domain/agent-events';
import { AgentProvider, AgentRunInput } from './agent-provider.port';

/** Rounds of tool calls before the model is made to answer with what it has. */
const MAX_TOOL_ROUNDS = 8;
/** A tool result longer than this is cut before it goes to the model. */
const MAX_TOOL_RESULT_CHARS = 16_000;
const UPSTREAM_TIMEOUT_MS = 120_000;

interface OpenAiCompatibleOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** Upstream failures, with their details, for the log (the client sees a short sentence). */
  onUpstreamError?: (error: unknown) => void;
}

interface PendingToolCall {
  id: string;
  name: string;
  arguments: string;
}

interface Completion {
  text: string;
  toolCalls: PendingToolCall[];
  finishReason: string | null;
}

function systemPrompt(now: Date): string {
  return [
    "You are Vigil's operations assistant. Vigil runs status pages, incidents and heartbeat monitoring.",
    "You answer about one account only, through the tools: they read that account's live data.",
    `The current time is ${now.toISOString()}.`,
    'Use the tools for every fact; never invent incidents, checks, services, times or numbers.',
    'The tools are read-only. You cannot create, change, resolve, post or delete anything: when asked to, say so plainly, and offer a draft (draft_incident_update) for updates.',
    "If a question is not about this account's incidents, status pages, services, heartbeat checks, events or availability, say that you cannot answer it.",
    'Answer concisely, in Markdown.',
  ].join('\n');
}

const FINISH_REASONS = new Map<string, FinishReason>([
  ['stop', 'stop'],
  ['length', 'length'],
  ['content_filter', 'content-filter'],
  ['tool_calls', 'tool-calls'],
  ['function_call', 'tool-calls'],
]);

const finishReasonOf = (reason: string | null): FinishReason => (reason === null ? 'stop' : (FINISH_REASONS.get(reason) ?? 'other'));

function toolResultText(outcome: { ok: true; output: unknown } | { ok: false; errorText: string }): string {
  const text = JSON.stringify(outcome.ok ? outcome.output : { error: outcome.errorText });
  return text.length > MAX_TOOL_RESULT_CHARS ? `${text.slice(0, MAX_TOOL_RESULT_CHARS)}… (cut: the result was longer)` : text;
}

/**
 * A chat-completions server (OpenAI, Ollama, vLLM, llama.cpp) through the `openai` client: streamed
 * completions with tool calls; each round's calls run on the account's read-only tools and go back
 * to the model, until it answers without calling one (at most MAX_TOOL_ROUNDS rounds, then one
 * last round with tools switched off). The client's abort signal cancels the upstream request.
 */
export class OpenAiCompatibleProvider implements AgentProvider {
  readonly name = 'openai-compatible' as const;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    // Everything explicit, so the client library takes nothing from OPENAI_* environment variables.
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      organization: null,
      project: null,
      webhookSecret: null,
      timeout: options.timeoutMs ?? UPSTREAM_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? 1,
      logLevel: 'off',
    });
  }

  async *run(input: AgentRunInput): AsyncGenerator<AgentEvent> {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: systemPrompt(input.now) },
      ...input.messages.map((m): ChatCompletionMessageParam => ({ role: m.role, content: m.text })),
    ];
    const tools: ChatCompletionTool[] = input.tools.definitions.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: { ...tool.parameters } },
    }));

    for (let round = 0; ; round++) {
      const lastRound = round >= MAX_TOOL_ROUNDS;
      yield { type: 'step-start' };
      const completion = yield* this.complete(messages, tools, round, input.signal);
      if (completion.toolCalls.length === 0 || lastRound) {
        if (completion.toolCalls.length > 0) {
          yield { type: 'text-delta', delta: `\n\n(Stopped after ${MAX_TOOL_ROUNDS} rounds of tool calls.)` };
        }
        yield { type: 'step-finish' };
        yield { type: 'finish', reason: completion.toolCalls.length > 0 ? 'other' : finishReasonOf(completion.finishReason) };
        return;
      }

      messages.push({
        role: 'assistant',
        content: completion.text === '' ? null : completion.text,
        tool_calls: completion.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
      });
      for (const call of completion.toolCalls) {
        if (input.signal.aborted) return;
        let args: unknown;
        try {
          args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
        } catch {
          args = undefined;
        }
        let outcome: { ok: true; output: unknown } | { ok: false; errorText: string };
        if (args === undefined) {
          outcome = { ok: false, errorText: 'The tool arguments were not valid JSON' };
          yield { type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments };
          yield { type: 'tool-error', toolCallId: call.id, errorText: outcome.errorText };
        } else {
          outcome = yield* input.tools.invoke(call.id, call.name, args);
        }
        messages.push({ role: 'tool', tool_call_id: call.id, content: toolResultText(outcome) });
      }
      yield { type: 'step-finish' };
    }
  }

  /** One streamed completion: text deltas pass through as they come; tool calls are put together from their pieces. */
  private async *complete(
    messages: ChatCompletionMessageParam[],
    tools: ChatCompletionTool[],
    round: number,
    signal: AbortSignal,
  ): AsyncGenerator<AgentEvent, Completion> {
    const lastRound = round >= MAX_TOOL_ROUNDS;
    const result: Completion = { text: '', toolCalls: [], finishReason: null };
    const calls = new Map<number, PendingToolCall>();
    try {
      const stream = await this.client.chat.completions.create(
        { model: this.options.model, messages, tools, stream: true, ...(lastRound ? { tool_choice: 'none' as const } : {}) },
        { signal },
      );
      for await (const chunk of stream) {
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = choice.delta;
        if (typeof delta?.content === 'string' && delta.content !== '') {
          result.text += delta.content;
          yield { type: 'text-delta', delta: delta.content };
        }
        for (const piece of delta?.tool_calls ?? []) {
          const index = piece.index ?? calls.size;
          const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
          if (piece.id) call.id = piece.id;
          if (piece.function?.name) call.name += piece.function.name;
          if (piece.function?.arguments) call.arguments += piece.function.arguments;
          calls.set(index, call);
        }
        if (choice.finish_reason) result.finishReason = choice.finish_reason;
      }
    } catch (error) {
      throw this.failure(error, signal);
    }
    let n = 0;
    for (const [, call] of [...calls.entries()].sort(([a], [b]) => a - b)) {
      n++;
      if (call.name === '') continue;
      // Some servers (llama.cpp, older Ollama) leave out ids: the tool messages still need one.
      result.toolCalls.push({ ...call, id: call.id || `call_${round}_${n}` });
    }
    return result;
  }

  private failure(error: unknown, signal: AbortSignal): unknown {
    if (error instanceof APIUserAbortError || signal.aborted) return new AgentFailure('The request was cancelled', error);
    this.options.onUpstreamError?.(error);
    if (error instanceof APIConnectionTimeoutError) return new AgentFailure('The AI provider did not answer in time', error);
    if (error instanceof APIConnectionError) return new AgentFailure('Could not reach the AI provider', error);
    if (error instanceof APIError) {
      return new AgentFailure(
        error.status ? `The AI provider answered with HTTP ${error.status}` : 'The AI provider reported an error in its stream',
        error,
      );
    }
    return error;
  }
}
