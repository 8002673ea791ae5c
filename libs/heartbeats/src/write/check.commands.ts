import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { NotFoundError, PreconditionFailedError, ValidationError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { ServiceDirectory } from '../../../status-pages/src/status-pages.api';
import { CheckConfig, checkStream, heartbeatCheckDecider } from '../domain/heartbeat-check.decider';
import { parseSchedule } from '../domain/schedule';
import { CheckSlugClaims } from './check-slug-claims';
import { CheckAlertLinks } from './check-alert-links';
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

/** The configuration to store: a valid schedule in its canonical spelling, absent options as null. */
function canonical(input: CheckInput): CheckInput {
  const heartbeat = { ...input.heartbeat, schedule: input.heartbeat.schedule ?? null, timezone: input.heartbeat.timezone ?? null };
  if (heartbeat.schedule !== null && heartbeat.period === null) {
    // An invalid schedule is kept as sent: the decider names the field.
    const parsed = parseSchedule(heartbeat.schedule, heartbeat.timezone);
    if (parsed.schedule) Object.assign(heartbeat, { schedule: parsed.schedule.expression, timezone: parsed.schedule.timezone });
  }
  return { ...input, slug: input.slug ?? null, heartbeat };
}

@CommandHandler(CreateHeartbeatCheckCommand)
export class CreateHeartbeatCheckHandler implements ICommandHandler<CreateHeartbeatCheckCommand, string> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly services: ServiceDirectory,
    private readonly tokens: PingTokenClaims,
    private readonly timers: HeartbeatCommands,
    private readonly slugs: CheckSlugClaims,
    private readonly alertLinks: CheckAlertLinks,
  ) {}

  async execute({ accountId, input: sent, actor }: CreateHeartbeatCheckCommand): Promise<string> {
    const input = canonical(sent);
    await requireService(this.services, accountId, input);
    await this.alertLinks.validate(accountId, input);
    const id = this.ids.next();
    // Tokens are secrets: fully random, not time-ordered like ids.
    const pingToken = input.heartbeat.pingToken ?? randomUUID();
    const config: CheckConfig = { ...input, heartbeat: { ...input.heartbeat, pingToken } };
    heartbeatCheckDecider.decide({ type: 'CreateHeartbeatCheck', id, accountId, config }, heartbeatCheckDecider.initialState());
    await this.tokens.claim(pingToken, id, actor);
    if (config.slug) await this.slugs.claim(accountId, config.slug, id, actor);
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
    private readonly slugs: CheckSlugClaims,
    private readonly alertLinks: CheckAlertLinks,
  ) {}

  async execute({ accountId, id, input: sent, actor, ifMatch }: UpdateHeartbeatCheckCommand): Promise<void> {
    const input = canonical(sent);
    const current = await this.runner.load(checkStream(id), heartbeatCheckDecider);
    if (current.state.status !== 'active' || current.state.accountId !== accountId || !current.state.config) {
      throw new NotFoundError('Check not found');
    }
    await requireService(this.services, accountId, input);
    await this.alertLinks.validate(accountId, input);
    const oldToken = current.state.config.heartbeat.pingToken;
    const pingToken = input.heartbeat.pingToken ?? oldToken;
    const config: CheckConfig = { ...input, heartbeat: { ...input.heartbeat, pingToken } };
    const oldSlug = current.state.config.slug ?? null;
    // Refused requests claim nothing: the same checks the append will make, before the token is claimed.
    if (ifMatch !== undefined && ifMatch !== current.revision) throw new PreconditionFailedError();
    heartbeatCheckDecider.decide({ type: 'UpdateHeartbeatCheck', id, accountId, config }, current.state);
    if (pingToken !== oldToken) await this.tokens.claim(pingToken, id, actor);
    if (config.slug && config.slug !== oldSlug) await this.slugs.claim(accountId, config.slug, id, actor);
    await this.runner.run(checkStream(id), heartbeatCheckDecider, { type: 'UpdateHeartbeatCheck', id, accountId, config }, actor, { ifMatch });
    await this.timers.reschedule(id, actor);
    if (pingToken !== oldToken) await this.tokens.release(oldToken, id, actor);
    if (oldSlug && oldSlug !== config.slug) await this.slugs.release(accountId, oldSlug, id, actor);
  }
}

@CommandHandler(DeleteHeartbeatCheckCommand)
export class DeleteHeartbeatCheckHandler implements ICommandHandler<DeleteHeartbeatCheckCommand, void> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly tokens: PingTokenClaims,
    private readonly timers: HeartbeatCommands,
    private readonly slugs: CheckSlugClaims,
  ) {}

  async execute({ accountId, id, actor, ifMatch }: DeleteHeartbeatCheckCommand): Promise<void> {
    const result = await this.runner.run(checkStream(id), heartbeatCheckDecider, { type: 'DeleteHeartbeatCheck', id, accountId }, actor, { ifMatch });
    await this.timers.reschedule(id, actor);
    const token = result.state.config?.heartbeat.pingToken;
    if (token) await this.tokens.release(token, id, actor);
    const slug = result.state.config?.slug;
    if (slug) await this.slugs.release(accountId, slug, id, actor);
  }
}

export class SetAlertChannelSubscriptionCommand {
  constructor(
    readonly accountId: string,
    readonly checkId: string,
    readonly alertChannelId: string,
    /** null removes the subscription. */
    readonly activated: boolean | null,
    readonly actor: Actor,
  ) {}
}

/** The channel side of a subscription (PUT /v1/alert-channels/{id}/subscriptions, channel deletion). */
@CommandHandler(SetAlertChannelSubscriptionCommand)
export class SetAlertChannelSubscriptionHandler implements ICommandHandler<SetAlertChannelSubscriptionCommand, void> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly timers: HeartbeatCommands,
  ) {}

  async execute({ accountId, checkId, alertChannelId, activated, actor }: SetAlertChannelSubscriptionCommand): Promise<void> {
    await this.runner.run(checkStream(checkId), heartbeatCheckDecider, { type: 'SetAlertChannelSubscription', id: checkId, accountId, alertChannelId, activated }, actor);
    // The timer records the check revision it reflects; keep it current like every other configuration change.
    await this.timers.reschedule(checkId, actor);
  }
}
