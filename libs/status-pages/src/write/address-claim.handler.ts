import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { PreconditionFailedError } from '../../../core/src/errors';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { AddressClaimCommand, addressClaimDecider, addressClaimStream, AddressKind } from '../domain/address-claim.decider';
import { sameDomain, statusPageDecider, statusPageStream } from '../domain/status-page.decider';

const MAX_ATTEMPTS = 20;

/** What a page's address reservation is about. */
export interface Address {
  kind: AddressKind;
  value: string;
}

/** A claim or release as its caller asks it; whether the holder still shows the address is read here. */
export type AddressClaimRequest = AddressClaimCommand extends infer C ? (C extends AddressClaimCommand ? Omit<C, 'holderUsesIt' | 'now'> : never) : never;

export class RunAddressClaimCommand extends AggregateCommand<AddressClaimRequest, void> {}

/**
 * Keeps `url` and `customDomain` unique across all accounts. Each value has a claim stream, written
 * through the command runner with the revision just read, so of two writers racing for one value exactly
 * one wins and the other, re-reading, finds it taken (409). A page's own stream stays the truth about which
 * address it shows: claims are taken before the page changes and released after, and a claim whose
 * holder does not show the address is taken over once it is stale (see the decider).
 */
@CommandHandler(RunAddressClaimCommand)
export class AddressClaimCommandHandler implements ICommandHandler<RunAddressClaimCommand, void> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ command, actor }: RunAddressClaimCommand): Promise<void> {
    const address = { kind: command.kind, value: command.value };
    if (command.type === 'ClaimAddress') return this.claim(address, command.statusPageId, command.accountId, actor);
    return this.release(address, command.statusPageId, actor);
  }

  /** Claims the address for the page, or throws ConflictError when another page holds it. */
  async claim(address: Address, statusPageId: string, accountId: string, actor: Actor): Promise<void> {
    await this.run(address, actor, this.claimOf(address, statusPageId, accountId));
  }

  /** Releases the page's claim unless the page (as it stands now) still shows the address. Never throws a conflict. */
  async release(address: Address, statusPageId: string, actor: Actor): Promise<void> {
    await this.run(address, actor, (holderUsesIt) => ({ type: 'ReleaseAddress', ...address, statusPageId, holderUsesIt }));
  }

  /**
   * Throws ConflictError when another page holds one of the addresses, writing nothing: a request that
   * will be refused claims nothing (and so has nothing to give back). A race can still make a later
   * claim fail; that one is given back as before.
   */
  async ensureFree(addresses: Address[], statusPageId: string, accountId: string): Promise<void> {
    for (const address of addresses) {
      const { state, holderUsesIt } = await this.load(address);
      addressClaimDecider.decide(this.claimOf(address, statusPageId, accountId)(holderUsesIt), state);
    }
  }

  private claimOf(address: Address, statusPageId: string, accountId: string): (holderUsesIt: boolean) => AddressClaimCommand {
    return (holderUsesIt) => ({ type: 'ClaimAddress', ...address, statusPageId, accountId, now: this.clock.now(), holderUsesIt });
  }

  private async run(address: Address, actor: Actor, command: (holderUsesIt: boolean) => AddressClaimCommand): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const { revision, holderUsesIt } = await this.load(address);
      try {
        // What the holder shows was read for this revision: after a conflict it is read again.
        await this.runner.run(addressClaimStream(address.kind, address.value), addressClaimDecider, command(holderUsesIt), actor, revision === null ? {} : { ifMatch: revision });
        return;
      } catch (error) {
        if (!(error instanceof PreconditionFailedError) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  /** The claim as it stands, and whether its holder's page still shows the address. */
  private async load(address: Address) {
    const { state, revision } = await this.runner.load(addressClaimStream(address.kind, address.value), addressClaimDecider);
    return { state, revision, holderUsesIt: state.holder ? await this.pageShows(state.holder.statusPageId, address) : false };
  }

  /** Whether the page, read from its own stream, is alive and shows the address. */
  private async pageShows(statusPageId: string, address: Address): Promise<boolean> {
    const { state } = await this.runner.load(statusPageStream(statusPageId), statusPageDecider);
    if (state.status !== 'active' || state.page === null) return false;
    return address.kind === 'url' ? state.page.url === address.value : sameDomain(state.page.customDomain, address.value);
  }
}
