import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ConcurrencyError } from '../../../core/src/errors';
import { EventMetadata } from '../../../core/src/event';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { AddressClaimCommand, AddressClaimEvent, addressClaimDecider, addressClaimStream, AddressClaimState, AddressKind } from '../domain/address-claim.decider';
import { statusPageDecider, statusPageStream } from '../domain/status-page.decider';

const MAX_ATTEMPTS = 20;

/** What a page's address reservation is about. */
export interface Address {
  kind: AddressKind;
  value: string;
}

function pageValue(kind: AddressKind, page: { url: string; customDomain: string | null }): string | null {
  return kind === 'url' ? page.url : page.customDomain;
}

function sameAddress(kind: AddressKind, a: string | null, b: string): boolean {
  if (a === null) return false;
  return kind === 'url' ? a === b : a.toLowerCase() === b.toLowerCase();
}

/**
 * Keeps `url` and `customDomain` unique across all accounts. Each value has a claim stream; a claim is
 * an append with the revision just read, so of two writers racing for one value exactly one wins and
 * the other, re-reading, finds it taken (409). A page's own stream stays the truth about which
 * address it shows: claims are taken before the page changes and released after, and a claim whose
 * holder does not show the address is taken over once it is stale (see the decider).
 */
@Injectable()
export class AddressReservations {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Claims the address for the page, or throws ConflictError when another page holds it. */
  async claim(address: Address, statusPageId: string, accountId: string, actor: Actor): Promise<void> {
    await this.run(address, actor, (holderUsesIt) => ({
      type: 'ClaimAddress',
      ...address,
      statusPageId,
      accountId,
      now: this.clock.now(),
      holderUsesIt,
    }));
  }

  /** Releases the page's claim unless the page (as it stands now) still shows the address. Never throws a conflict. */
  async release(address: Address, statusPageId: string, actor: Actor): Promise<void> {
    await this.run(address, actor, (holderUsesIt) => ({ type: 'ReleaseAddress', ...address, statusPageId, holderUsesIt }));
  }

  /** Releases each address, ignoring failures: a claim left behind heals itself once stale. */
  async releaseAll(addresses: Address[], statusPageId: string, actor: Actor): Promise<void> {
    for (const address of addresses) {
      await this.release(address, statusPageId, actor).catch(() => undefined);
    }
  }

  /**
   * Throws ConflictError when another page holds one of the addresses, writing nothing: a request that
   * will be refused claims nothing (and so has nothing to give back). A race can still make a later
   * claim fail; that one is given back as before.
   */
  async ensureFree(addresses: Address[], statusPageId: string, accountId: string): Promise<void> {
    for (const address of addresses) {
      await this.decide(address, (holderUsesIt) => ({ type: 'ClaimAddress', ...address, statusPageId, accountId, now: this.clock.now(), holderUsesIt }));
    }
  }

  /** The claim stream as it stands, and what the command would append to it. */
  private async decide(address: Address, command: (holderUsesIt: boolean) => AddressClaimCommand) {
    const stream = addressClaimStream(address.kind, address.value);
    const history = await this.events.readStream(stream);
    let state: AddressClaimState = addressClaimDecider.initialState();
    for (const event of history) state = addressClaimDecider.evolve(state, event as unknown as AddressClaimEvent & { metadata: EventMetadata });
    const holderUsesIt = state.holder ? await this.pageShows(state.holder.statusPageId, address) : false;
    return { stream, history, decided: addressClaimDecider.decide(command(holderUsesIt), state) };
  }

  private async run(address: Address, actor: Actor, command: (holderUsesIt: boolean) => AddressClaimCommand): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const { stream, history, decided } = await this.decide(address, command);
      if (decided.length === 0) return;
      const metadata: EventMetadata = {
        accountId: actor.accountId,
        keyId: actor.keyId ?? null,
        keyName: actor.keyName ?? null,
        requestId: actor.requestId ?? null,
        occurredAt: this.clock.now().toISOString(),
      };
      const revision = history.length > 0 ? history[history.length - 1].revision : null;
      try {
        await this.events.appendToStream(
          stream,
          decided.map((e) => ({ type: e.type, data: e.data as unknown as Record<string, unknown>, metadata })),
          { expectedRevision: revision ?? 'no_stream' },
        );
        return;
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  /** Whether the page, read from its own stream, is alive and shows the address. */
  private async pageShows(statusPageId: string, address: Address): Promise<boolean> {
    const { state } = await this.runner.load(statusPageStream(statusPageId), statusPageDecider);
    return state.status === 'active' && state.page !== null && sameAddress(address.kind, pageValue(address.kind, state.page), address.value);
  }
}
