import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { NotFoundError } from '../../../core/src/errors';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { AccountsQuery } from '../../../accounts/src/accounts.api';
import { TeamCommand, teamDecider, TeamEvent, TeamState, teamStream } from '../domain/team.decider';

export type TeamRunResult = RunResult<TeamState, TeamEvent>;

/** Every write to an account's people: members, roles, invitations. */
export class RunTeamCommand extends AggregateCommand<TeamCommand, TeamRunResult> {}

@CommandHandler(RunTeamCommand)
export class TeamCommandHandler implements ICommandHandler<RunTeamCommand, TeamRunResult> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly queries: QueryBus,
  ) {}

  async execute({ command, actor, ifMatch }: RunTeamCommand): Promise<TeamRunResult> {
    // A team is only ever started on an account that exists.
    if (command.type === 'AddMember' || command.type === 'Invite') {
      if (!(await this.queries.execute(new AccountsQuery({ type: 'GetAccount', id: command.accountId })))) throw new NotFoundError(`Account ${command.accountId} does not exist`);
    }
    return this.runner.run(teamStream(command.accountId), teamDecider, command, { ...actor, accountId: command.accountId }, { ifMatch });
  }
}
