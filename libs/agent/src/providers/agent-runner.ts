import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { AGENT_DATA_SOURCE, AgentDataSource } from '../domain/agent-data-source';
import { AgentMessage } from '../domain/agent-messages';
import { AgentToolbox } from '../domain/agent-tools';
import { toUiMessageChunks, UiMessageChunk } from '../domain/ui-message-chunks';
import { AGENT_PROVIDER, AgentProvider } from './agent-provider.port';

interface AgentRunRequest {
  accountId: string;
  requestId: string;
  messages: AgentMessage[];
  signal: AbortSignal;
}

/** Binds the tools to the caller's account, runs the configured provider and yields protocol chunks. */
@Injectable()
export class AgentRunner {
  constructor(
    @Inject(AGENT_PROVIDER) private readonly provider: AgentProvider,
    @Inject(AGENT_DATA_SOURCE) private readonly data: AgentDataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(LOGGER) private readonly logger: VigilLogger,
  ) {}

  run(request: AgentRunRequest): AsyncGenerator<UiMessageChunk> {
    const { accountId, requestId } = request;
    const now = this.clock.now();
    const tools = new AgentToolbox({ data: this.data, accountId, now }, (error) =>
      this.logger.error({ err: error, reqId: requestId, accountId }, 'agent tool failed'),
    );
    const events = this.provider.run({ accountId, messages: request.messages, tools, now, signal: request.signal });
    return toUiMessageChunks(events, {
      messageId: this.ids.next(),
      onUnexpectedError: (error) => this.logger.error({ err: error, reqId: requestId, accountId }, 'agent stream failed'),
      unexpectedErrorText: `The agent failed (request id ${requestId})`,
    });
  }
}
