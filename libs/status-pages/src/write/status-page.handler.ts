import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { PreconditionFailedError, ValidationError, ViolationDetail } from '../../../core/src/errors';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { Actor, CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { PageInput, requireOwned, sameDomain, StatusPageCommand, statusPageDecider, StatusPageState, statusPageStream } from '../domain/status-page.decider';
import { ServiceDirectory } from '../read/service-directory';
import { Address, AddressClaimCommandHandler, RunAddressClaimCommand } from './address-claim.handler';
import { RunSubscriptionsCommand } from './subscriptions.handler';

export class RunStatusPageCommand extends AggregateCommand<StatusPageCommand, RunResult<StatusPageState>> {}

function addressesOf(page: { url: string; customDomain: string | null }): Address[] {
  const out: Address[] = [{ kind: 'url', value: page.url }];
  if (page.customDomain !== null) out.push({ kind: 'customDomain', value: page.customDomain });
  return out;
}

/**
 * The one entry of StatusPage writes. Around the decider: every service on the cards must be the
 * account's; the page's addresses are claimed before the page changes (the page appears only once they
 * are its own) and what it no longer shows is released after; a deleted page closes its subscriptions.
 */
@CommandHandler(RunStatusPageCommand)
export class StatusPageCommandHandler implements ICommandHandler<RunStatusPageCommand, RunResult<StatusPageState>> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly commands: CommandBus,
    private readonly services: ServiceDirectory,
    private readonly claims: AddressClaimCommandHandler,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  async execute({ command, actor, ifMatch }: RunStatusPageCommand): Promise<RunResult<StatusPageState>> {
    const stream = statusPageStream(command.id);
    if (command.type === 'RecordDomainCheck') return this.runner.run(stream, statusPageDecider, command, actor);
    if (command.type === 'DeleteStatusPage') {
      const result = await this.runner.run(stream, statusPageDecider, command, actor, { ifMatch });
      if (result.state.page) await this.releaseAll(addressesOf(result.state.page), command.id, actor);
      // Subscribers go with their page; their stream refuses new ones from now on.
      await this.commands.execute(new RunSubscriptionsCommand({ type: 'CloseSubscriptions', statusPageId: command.id }, actor));
      return result;
    }
    let before: StatusPageState | null = null;
    if (command.type === 'UpdateStatusPage') {
      // A missing page is a 404 before anything is checked or claimed.
      const loaded = await this.runner.load(stream, statusPageDecider);
      requireOwned(loaded.state, command.accountId);
      if (ifMatch !== undefined && ifMatch !== loaded.revision) throw new PreconditionFailedError();
      before = loaded.state;
    }
    if (sameDomain(command.page.customDomain, new URL(this.config.publicUrl).hostname)) {
      throw ValidationError.of([{ path: 'customDomain', message: "customDomain cannot be this Vigil's own host (VIGIL_PUBLIC_URL)" }]);
    }
    await this.checkServices(command.accountId, command.page);
    const wanted = addressesOf(command.page);
    await this.claims.ensureFree(wanted, command.id, command.accountId);
    // The state the update was finally decided on (the runner re-decides after a conflict).
    let decidedOn = before?.page ?? null;
    const recording = {
      ...statusPageDecider,
      decide(c: StatusPageCommand, state: StatusPageState) {
        decidedOn = state.page;
        return statusPageDecider.decide(c, state);
      },
    };
    let result: RunResult<StatusPageState>;
    try {
      for (const address of wanted) {
        await this.commands.execute(new RunAddressClaimCommand({ type: 'ClaimAddress', ...address, statusPageId: command.id, accountId: command.accountId }, actor));
      }
      result = await this.runner.run(stream, recording, command, actor, { ifMatch });
    } catch (error) {
      // Gives back what this request claimed, unless the page shows it (it held it before).
      await this.releaseAll(wanted, command.id, actor);
      throw error;
    }
    // What the page showed before and no longer does.
    if (decidedOn) await this.releaseAll(addressesOf(decidedOn), command.id, actor);
    return result;
  }

  /** A claim left behind heals itself once stale, so a failed release is not the request's failure. */
  private async releaseAll(addresses: Address[], statusPageId: string, actor: Actor): Promise<void> {
    for (const address of addresses) {
      await this.commands.execute(new RunAddressClaimCommand({ type: 'ReleaseAddress', ...address, statusPageId }, actor)).catch(() => undefined);
    }
  }

  /** Every service on the cards must be one of the account's; each miss is reported at its path. */
  private async checkServices(accountId: string, page: PageInput): Promise<void> {
    const found = await this.services.getMany(accountId, page.cards.flatMap((card) => card.serviceIds));
    const details: ViolationDetail[] = [];
    page.cards.forEach((card, i) =>
      card.serviceIds.forEach((id, j) => {
        if (!found.has(id)) details.push({ path: `cards[${i}].services[${j}].id`, message: 'no service of this account has this id' });
      }),
    );
    if (details.length > 0) throw ValidationError.of(details);
  }
}
