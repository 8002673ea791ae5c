import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { ServiceDirectory } from '../../../status-pages/src/read/service-directory';
import { CheckConfig, checkStream, heartbeatCheckDecider } from '../domain/heartbeat-check.decider';
import { PingTokenClaims } from './ping-token-claims';
import { HeartbeatCommands } from './heartbeat.commands';

/** A check configuration as the client sent it: the token may be missing (generated or kept). */
export type CheckInput = Omit<CheckConfig, 'heartbeat'> & {
  heartbeat: Omit<CheckConfig['heartbeat'], 'pingToken'> & { pingToken: string | null };
};

export class CreateHeartbeatCheckCommand {
  constructor(
    readonly accountId: string,
    readonly input: CheckInput,
    readonly actor: Actor,
  ) {}
}

export class UpdateHeartbeatCheckCommand {
  constructor(
    readonly accountId: string,
    readonly id: string,
    readonly input: CheckInput,
    readonly actor: Actor,
    readonly ifMatch?: bigint,
  ) {}
}

export class DeleteHeartbeatCheckCommand {
  constructor(
    readonly accountId: string,
    readonly id: string,
    readonly actor: Actor,
    readonly ifMatch?: bigint,
  ) {}
}

async function requireService(services: ServiceDirectory, accountId: string, input: CheckInput): Promise<void> {
  const serviceId = input.triggerIncident?.serviceId;
  if (serviceId && !(await services.get(accountId, serviceId))) {
    throw ValidationError.of([{ path: 'triggerIncident.serviceId', message: 'must name an existing service of this account' }]);
  }
}

@CommandHandler(CreateHeartbeatCheckCommand)
export class CreateHeartbeatCheckHandler implements ICommandHandler<CreateHeartbeatCheckCommand, string> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly services: ServiceDirectory,
    private readonly tokens: PingTokenClaims,
    private readonly timers: HeartbeatCommands,
  ) {}

  async execute({ accountId, input, actor }: CreateHeartbeatCheckCommand): Promise<string> {
    await requireService(this.services, accountId, input);
    const id = this.ids.next();
    // Tokens are secrets: fully random, not time-ordered like ids.
    const pingToken = input.heartbeat.pingToken ?? randomUUID();
    const config: CheckConfig = { ...input, heartbeat: { ...input.heartbeat, pingToken } };
    heartbeatCheckDecider.decide({ type: 'CreateHeartbeatCheck', id, accountId, config }, heartbeatCheckDecider.initialState());
    await this.tokens.claim(pingToken, id, actor);
    await this.runner.run(checkStream(id), heartbeatCheckDecider, { type: 'CreateHeartbeatCheck', id, accountId, config }, actor);
    await this.timers.reschedule(id, actor);
    return id;
  }
}

@CommandHandler(UpdateHeartbeatCheckCommand)
export class UpdateHeartbeatCheckHandler implements ICommandHandler<UpdateHeartbeatCheckCommand, void> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly services: ServiceDirectory,
    private readonly tokens: PingTokenClaims,
    private readonly timers: HeartbeatCommands,
  ) {}

  async execute({ accountId, id, input, actor, ifMatch }: UpdateHeartbeatCheckCommand): Promise<void> {
    const current = await this.runner.load(checkStream(id), heartbeatCheckDecider);
    if (current.state.status !== 'active' || current.state.accountId !== accountId || !current.state.config) {
      throw new NotFoundError('Check not found');
    }
    await requireService(this.services, accountId, input);
    const oldToken = current.state.config.heartbeat.pingToken;
    const pingToken = input.heartbeat.pingToken ?? oldToken;
    const config: CheckConfig = { ...input, heartbeat: { ...input.heartbeat, pingToken } };
    if (pingToken !== oldToken) await this.tokens.claim(pingToken, id, actor);
    await this.runner.run(checkStream(id), heartbeatCheckDecider, { type: 'UpdateHeartbeatCheck', id, accountId, config }, actor, { ifMatch });
    await this.timers.reschedule(id, actor);
    if (pingToken !== oldToken) await this.tokens.release(oldToken, id, actor);
  }
}

@CommandHandler(DeleteHeartbeatCheckCommand)
export class DeleteHeartbeatCheckHandler implements ICommandHandler<DeleteHeartbeatCheckCommand, void> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly tokens: PingTokenClaims,
    private readonly timers: HeartbeatCommands,
  ) {}

  async execute({ accountId, id, actor, ifMatch }: DeleteHeartbeatCheckCommand): Promise<void> {
    const result = await this.runner.run(checkStream(id), heartbeatCheckDecider, { type: 'DeleteHeartbeatCheck', id, accountId }, actor, { ifMatch });
    await this.timers.reschedule(id, actor);
    const token = result.state.config?.heartbeat.pingToken;
    if (token) await this.tokens.release(token, id, actor);
  }
}
