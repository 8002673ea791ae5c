import { Module } from '@nestjs/common';
import { HeartbeatsModule } from '../../heartbeats/src/heartbeats.api';
import { IncidentsModule } from '../../incidents/src/incidents.api';
import { VIGIL_CONFIG, VigilConfig } from '../../platform/src/config';
import { LOGGER, VigilLogger } from '../../platform/src/logger';
import { StatusPagesModule } from '../../status-pages/src/status-pages.api';
import { AGENT_DATA_SOURCE } from './domain/agent-data-source';
import { AgentController } from './http/agent.controller';
import { AGENT_PROVIDER, AgentProvider } from './providers/agent-provider.port';
import { AgentRunner } from './providers/agent-runner';
import { BuiltinProvider } from './providers/builtin.provider';
import { OpenAiCompatibleProvider } from './providers/openai-compatible.provider';
import { ContextAgentDataSource } from './read/context-agent-data-source';

function providerFor(config: VigilConfig, logger: VigilLogger): AgentProvider {
  if (config.aiProvider !== 'openai-compatible') return new BuiltinProvider();
  return new OpenAiCompatibleProvider({
    // Config validation guarantees all three for this provider.
    baseUrl: config.aiBaseUrl!,
    apiKey: config.aiApiKey!,
    model: config.aiModel!,
    onUpstreamError: (error) => logger.warn({ err: error }, 'AI provider request failed'),
  });
}

/**
 * The AI agent (endpoint 11): read-only tools over the incidents, status pages and heartbeats
 * contexts' exported queries, answered by the configured provider. It writes nothing.
 */
@Module({
  imports: [StatusPagesModule, IncidentsModule, HeartbeatsModule],
  controllers: [AgentController],
  providers: [
    AgentRunner,
    { provide: AGENT_DATA_SOURCE, useClass: ContextAgentDataSource },
    { provide: AGENT_PROVIDER, useFactory: providerFor, inject: [VIGIL_CONFIG, LOGGER] },
  ],
})
export class AgentModule {}
