import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { isEmail } from 'class-validator';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { requireOwned, statusPageDecider, statusPageStream } from '../domain/status-page.decider';
import { SubscriptionData, subscriptionsDecider, SubscriptionStatus, subscriptionsStream, SubscriptionType } from '../domain/subscriptions.decider';
import { outboundUrlProblem } from '../../../core/src/outbound-address';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { EmailQuota } from './email-quota';

export class AddSubscriptionsCommand {
  constructor(
    readonly accountId: string,
    readonly statusPageId: string,
    /** The `config` of each entry: an email address, still to be checked. */
    readonly addresses: string[],
    readonly autoVerify: boolean,
    readonly actor: Actor,
    /** The type of each entry (default EMAIL). */
    readonly types: SubscriptionType[] = [],
  ) {}
}

export interface BulkResult {
  created: number;
  skipped: number;
  status: SubscriptionStatus;
}

/** The page's subscriptions stream revision after the command: the ETag of its subscription list. */
export interface BulkOutcome {
  result: BulkResult;
  revision: bigint | null;
}

export class RemoveSubscriptionCommand {
  constructor(
    readonly accountId: string,
    readonly statusPageId: string,
    readonly id: string,
    readonly actor: Actor,
    /** The page's subscriptions revision the client last saw (If-Match), as on every other delete. */
    readonly ifMatch?: bigint,
  ) {}
}

const MAX_ADDRESS_LENGTH = 254;

/** In `u` mode a surrogate pair is one code point: this matches only an unpaired one. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * An address a mail server would take: the syntax of validator.js, with a top-level domain, at most 254
 * characters. JSON bodies cannot bring a lone surrogate this far (json-body.ts), but validator.js throws
 * on one (URIError), and other callers (a form post) need not have been through that stage.
 */
export function isDeliverableAddress(address: string): boolean {
  return address.length <= MAX_ADDRESS_LENGTH && !LONE_SURROGATE.test(address) && isEmail(address, { require_tld: true, allow_display_name: false, allow_ip_domain: false });
}

async function requirePage(runner: CommandRunner, accountId: string, statusPageId: string): Promise<void> {
  const { state } = await runner.load(statusPageStream(statusPageId), statusPageDecider);
  requireOwned(state, accountId);
}

@CommandHandler(AddSubscriptionsCommand)
export class AddSubscriptionsHandler implements ICommandHandler<AddSubscriptionsCommand, BulkOutcome> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_STORE) private readonly store: ReadStore,
  ) {}

  async execute({ accountId, statusPageId, addresses, autoVerify, actor, types }: AddSubscriptionsCommand): Promise<BulkOutcome> {
    await requirePage(this.runner, accountId, statusPageId);
    const status: SubscriptionStatus = autoVerify ? 'VERIFIED' : 'PENDING';
    // Skipping double opt-in is recorded with the key that did it.
    const verifiedBy = autoVerify ? { autoVerifiedBy: actor.keyId ?? actor.keyName ?? 'unknown' } : {};
    const candidates: SubscriptionData[] = addresses
      .map((address, i) => ({ address: address.trim(), type: types[i] ?? ('EMAIL' as const) }))
      .filter(({ address, type }) => (type === 'EMAIL' ? isDeliverableAddress(address) : this.isWebhookTarget(address)))
      .map(({ address, type }) => ({ id: this.ids.next(), type, address, status, ...verifiedBy }));
    // Each new unverified address may cost a confirmation email: counted (at most) before any is written.
    const confirmations = autoVerify ? 0 : candidates.filter((c) => c.type === 'EMAIL').length;
    await new EmailQuota(this.store, { confirmationsPerHour: this.config.emailConfirmationsPerHour, emailsPerHour: this.config.emailsPerHour }).take(accountId, this.clock.now(), confirmations);
    const { appended, revision } = await this.runner.run(
      subscriptionsStream(statusPageId),
      subscriptionsDecider,
      { type: 'AddSubscriptions', statusPageId, accountId, candidates, requestedAt: this.clock.now().toISOString() },
      actor,
    );
    const created = appended.reduce((sum, event) => sum + (event.type === 'StatusPageSubscriptionsAdded' ? event.data.subscriptions.length : 0), 0);
    return { result: { created, skipped: addresses.length - created, status }, revision };
  }

  /** https (http too where private targets are allowed: closed networks, tests), at most 2,048 characters. */
  private isWebhookTarget(url: string): boolean {
    if (url.length > 2048 || outboundUrlProblem(url, { allowPrivate: this.config.outboundAllowPrivate }) !== null) return false;
    return url.startsWith('https://') || this.config.outboundAllowPrivate;
  }
}

@CommandHandler(RemoveSubscriptionCommand)
export class RemoveSubscriptionHandler implements ICommandHandler<RemoveSubscriptionCommand, void> {
  constructor(@Inject(COMMAND_RUNNER) private readonly runner: CommandRunner) {}

  async execute({ accountId, statusPageId, id, actor, ifMatch }: RemoveSubscriptionCommand): Promise<void> {
    await requirePage(this.runner, accountId, statusPageId);
    await this.runner.run(subscriptionsStream(statusPageId), subscriptionsDecider, { type: 'RemoveSubscription', statusPageId, accountId, id }, actor, { ifMatch });
  }
}

export class VerifySubscriptionCommand {
  constructor(
    readonly statusPageId: string,
    readonly id: string,
    readonly actor: Actor,
  ) {}
}

/** The confirmation link of double opt-in; true when this call verified it (false: already verified). */
@CommandHandler(VerifySubscriptionCommand)
export class VerifySubscriptionHandler implements ICommandHandler<VerifySubscriptionCommand, boolean> {
  constructor(@Inject(COMMAND_RUNNER) private readonly runner: CommandRunner) {}

  async execute({ statusPageId, id, actor }: VerifySubscriptionCommand): Promise<boolean> {
    const { appended } = await this.runner.run(subscriptionsStream(statusPageId), subscriptionsDecider, { type: 'VerifySubscription', statusPageId, id }, actor);
    return appended.length > 0;
  }
}
