import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { PreconditionFailedError, ValidationError, ViolationDetail } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { AddressKind } from '../domain/address-claim.decider';
import {
  PageInput,
  PageSettings,
  requireOwned,
  StatusPageCommand,
  statusPageDecider,
  StatusPageState,
  statusPageStream,
} from '../domain/status-page.decider';
import { subscriptionsDecider, subscriptionsStream } from '../domain/subscriptions.decider';
import { ServiceDirectory } from '../read/service-directory';
import { Address, AddressReservations } from './address-reservations';

/** A page as the HTTP layer hands it over: validated, with cards as the client sent them. */
export interface PageRequest extends Omit<PageSettings, 'cards'> {
  cards: { id: string | null; name: string; serviceIds: string[] }[];
}

export class CreateStatusPageCommand {
  constructor(
    readonly accountId: string,
    readonly page: PageRequest,
    readonly actor: Actor,
  ) {}
}

export class UpdateStatusPageCommand {
  constructor(
    readonly accountId: string,
    readonly id: string,
    readonly page: PageRequest,
    readonly actor: Actor,
    readonly ifMatch?: bigint,
  ) {}
}

export class DeleteStatusPageCommand {
  constructor(
    readonly accountId: string,
    readonly id: string,
    readonly actor: Actor,
    readonly ifMatch?: bigint,
  ) {}
}

function addressesOf(page: { url: string; customDomain: string | null }): Address[] {
  const out: Address[] = [{ kind: 'url', value: page.url }];
  if (page.customDomain !== null) out.push({ kind: 'customDomain' as AddressKind, value: page.customDomain });
  return out;
}

/** Every service on the cards must be one of the account's; each miss is reported at its path. */
async function checkServices(services: ServiceDirectory, accountId: string, page: PageRequest): Promise<void> {
  const found = await services.getMany(accountId, page.cards.flatMap((card) => card.serviceIds));
  const details: ViolationDetail[] = [];
  page.cards.forEach((card, i) =>
    card.serviceIds.forEach((id, j) => {
      if (!found.has(id)) details.push({ path: `cards[${i}].services[${j}].id`, message: 'no service of this account has this id' });
    }),
  );
  if (details.length > 0) throw ValidationError.of(details);
}

function pageInput(page: PageRequest, ids: IdGenerator): PageInput {
  const { cards, ...rest } = page;
  return { ...rest, cards: cards.map((card) => ({ ref: card.id, newId: ids.next(), name: card.name, serviceIds: card.serviceIds })) };
}

@CommandHandler(CreateStatusPageCommand)
export class CreateStatusPageHandler implements ICommandHandler<CreateStatusPageCommand, string> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly services: ServiceDirectory,
    private readonly reservations: AddressReservations,
  ) {}

  async execute({ accountId, page, actor }: CreateStatusPageCommand): Promise<string> {
    await checkServices(this.services, accountId, page);
    const id = this.ids.next();
    const addresses = addressesOf(page);
    await this.reservations.ensureFree(addresses, id, accountId);
    try {
      // Claims first: the page appears only once its addresses are its own.
      for (const address of addresses) await this.reservations.claim(address, id, accountId, actor);
      await this.runner.run(statusPageStream(id), statusPageDecider, { type: 'CreateStatusPage', id, accountId, page: pageInput(page, this.ids) }, actor);
    } catch (error) {
      await this.reservations.releaseAll(addresses, id, actor);
      throw error;
    }
    return id;
  }
}

@CommandHandler(UpdateStatusPageCommand)
export class UpdateStatusPageHandler implements ICommandHandler<UpdateStatusPageCommand, void> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly services: ServiceDirectory,
    private readonly reservations: AddressReservations,
  ) {}

  async execute({ accountId, id, page, actor, ifMatch }: UpdateStatusPageCommand): Promise<void> {
    const stream = statusPageStream(id);
    // A missing page is a 404 before anything is checked or claimed.
    const { state: before, revision } = await this.runner.load(stream, statusPageDecider);
    requireOwned(before, accountId);
    if (ifMatch !== undefined && ifMatch !== revision) throw new PreconditionFailedError();
    await checkServices(this.services, accountId, page);

    const wanted = addressesOf(page);
    await this.reservations.ensureFree(wanted, id, accountId);
    // The state the update was finally decided on (the runner re-decides after a conflict).
    let decidedOn: PageSettings | null = before.page;
    const recording = {
      ...statusPageDecider,
      decide(command: StatusPageCommand, state: StatusPageState) {
        decidedOn = state.page;
        return statusPageDecider.decide(command, state);
      },
    };
    try {
      for (const address of wanted) await this.reservations.claim(address, id, accountId, actor);
      await this.runner.run(stream, recording, { type: 'UpdateStatusPage', id, accountId, page: pageInput(page, this.ids) }, actor, { ifMatch });
    } catch (error) {
      // Gives back what this request claimed, unless the page shows it (it held it before).
      await this.reservations.releaseAll(wanted, id, actor);
      throw error;
    }
    // What the page showed before and no longer does.
    const replaced = decidedOn ? addressesOf(decidedOn) : [];
    await this.reservations.releaseAll(replaced, id, actor);
  }
}

@CommandHandler(DeleteStatusPageCommand)
export class DeleteStatusPageHandler implements ICommandHandler<DeleteStatusPageCommand, void> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly reservations: AddressReservations,
  ) {}

  async execute({ accountId, id, actor, ifMatch }: DeleteStatusPageCommand): Promise<void> {
    const { state } = await this.runner.run(statusPageStream(id), statusPageDecider, { type: 'DeleteStatusPage', id, accountId }, actor, { ifMatch });
    if (state.page) await this.reservations.releaseAll(addressesOf(state.page), id, actor);
    // Subscribers go with their page; the stream refuses new ones from now on.
    await this.runner.run(subscriptionsStream(id), subscriptionsDecider, { type: 'CloseSubscriptions', statusPageId: id }, actor);
  }
}
