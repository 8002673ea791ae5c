import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { CLOCK, Clock } from '../../../core/src/clock';
import { PreconditionFailedError, ValidationError } from '../../../core/src/errors';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { Actor, CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { ServiceDirectory } from '../../../status-pages/src/status-pages.api';
import {
  CheckConfig,
  HeartbeatCheckCommand,
  heartbeatCheckDecider,
  HeartbeatCheckEvent,
  HeartbeatCheckState,
  checkStream,
  CheckInput,
  requireOwned,
} from '../domain/heartbeat-check.decider';
import { parseSchedule } from '../domain/schedule';
import { rescheduleOf } from '../domain/heartbeat.decider';
import { CheckAlertLinks } from './check-alert-links';
import { RunHeartbeatCommand } from './heartbeat.handler';
import { ClaimedName, RunNameClaimCommand } from './name-claim.handler';

export type HeartbeatCheckRun = RunResult<HeartbeatCheckState, HeartbeatCheckEvent>;

export class RunHeartbeatCheckCommand extends AggregateCommand<HeartbeatCheckCommand, HeartbeatCheckRun> {}

type Save = Extract<HeartbeatCheckCommand, { type: 'CreateHeartbeatCheck' | 'UpdateHeartbeatCheck' }>;

/**
 * Every write to `check-<id>`. A configuration is validated (its service, its alerting parts) and its ping
 * token and slug claimed before it is stored; after it, the timer takes the new schedule and names the
 * check no longer uses are released. A missing ping token is generated on create (tokens are secrets: fully
 * random, not time-ordered like ids) and kept on update.
 */
@CommandHandler(RunHeartbeatCheckCommand)
export class HeartbeatCheckCommandHandler implements ICommandHandler<RunHeartbeatCheckCommand, HeartbeatCheckRun> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commands: CommandBus,
    private readonly services: ServiceDirectory,
    private readonly alertLinks: CheckAlertLinks,
  ) {}

  async execute({ command, actor, ifMatch }: RunHeartbeatCheckCommand): Promise<HeartbeatCheckRun> {
    const stream = checkStream(command.id);
    const before = command.type === 'CreateHeartbeatCheck' ? null : await this.runner.load(stream, heartbeatCheckDecider);
    if (command.type === 'CreateHeartbeatCheck' || command.type === 'UpdateHeartbeatCheck') {
      command = await this.claimFor(command, before, actor, ifMatch);
    }
    const result = await this.runner.run(stream, heartbeatCheckDecider, command, actor, { ifMatch });
    const reschedule = rescheduleOf(command.id, result.state, result.revision, this.clock.now());
    if (reschedule) await this.commands.execute(new RunHeartbeatCommand(command.id, reschedule, actor));
    const after = result.state.status === 'active' ? result.state.config : null;
    for (const name of namesGivenUp(result.state.accountId, before?.state.config ?? null, after)) {
      await this.commands.execute(new RunNameClaimCommand(name, { type: 'Release', checkId: command.id }, actor));
    }
    return result;
  }

  /** Validates a configuration and claims its names; refused requests claim nothing. */
  private async claimFor(command: Save, before: { state: HeartbeatCheckState; revision: bigint | null } | null, actor: Actor, ifMatch?: bigint): Promise<Save> {
    const current = before ? requireOwned(before.state, command.accountId) : null;
    const serviceId = command.config.triggerIncident?.serviceId;
    if (serviceId && !(await this.services.get(command.accountId, serviceId))) {
      throw ValidationError.of([{ path: 'triggerIncident.serviceId', message: 'must name an existing service of this account' }]);
    }
    await this.alertLinks.validate(command.accountId, command.config);
    const input = canonical(command.config);
    const pingToken = input.heartbeat.pingToken ?? current?.heartbeat.pingToken ?? randomUUID();
    const prepared: Save = { ...command, config: { ...input, heartbeat: { ...input.heartbeat, pingToken } } };
    if (ifMatch !== undefined && before && ifMatch !== before.revision) throw new PreconditionFailedError();
    // The checks the append will make, before any name is claimed.
    heartbeatCheckDecider.decide(prepared, before?.state ?? heartbeatCheckDecider.initialState());
    const slug = prepared.config.slug ?? null;
    if (pingToken !== current?.heartbeat.pingToken) await this.claim({ kind: 'pingToken', token: pingToken }, command.id, actor);
    if (slug && slug !== (current?.slug ?? null)) await this.claim({ kind: 'slug', accountId: command.accountId, slug }, command.id, actor);
    return prepared;
  }

  private claim(name: ClaimedName, checkId: string, actor: Actor): Promise<void> {
    return this.commands.execute(new RunNameClaimCommand(name, { type: 'Claim', checkId }, actor));
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

/** The names a check held `before` and no longer holds `after` (null: deleted). */
function namesGivenUp(accountId: string | null, before: CheckConfig | null, after: CheckConfig | null): ClaimedName[] {
  if (!before) return [];
  const names: ClaimedName[] = [];
  const token = before.heartbeat.pingToken;
  if (token !== after?.heartbeat.pingToken) names.push({ kind: 'pingToken', token });
  const slug = before.slug ?? null;
  if (slug && accountId && slug !== (after?.slug ?? null)) names.push({ kind: 'slug', accountId, slug });
  return names;
}
