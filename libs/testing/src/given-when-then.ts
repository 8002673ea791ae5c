import { Decider, fold } from '../../core/src/decider';
import { DomainEvent, EventMetadata, handledEvent, RecordedEvent } from '../../core/src/event';
import { Projection, ReadModelDoc } from '../../core/src/projection';

type ErrorClass = new (...args: never[]) => Error;

/**
 * Decider specs read as given (past events) / when (a command) / then (new events or an error).
 * Pure: no store, no clock.
 */
export function specFor<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>) {
  return {
    given(events: Event[]) {
      return {
        when(command: Command) {
          const decide = () => decider.decide(command, fold(decider, events));
          return {
            then(expected: Event[]): void {
              expect(decide()).toEqual(expected);
            },
            thenThrows(errorClass: ErrorClass, message?: string | RegExp): void {
              expect(decide).toThrow(errorClass);
              if (message !== undefined) expect(decide).toThrow(message);
            },
          };
        },
      };
    },
  };
}

/** Builds events as the store records them, one stream, revisions from 0 in order. */
export function recorded<E extends DomainEvent>(
  stream: string,
  events: readonly E[],
  options: { accountId?: string | null; at?: (index: number) => string; firstPosition?: bigint } = {},
): RecordedEvent<E>[] {
  const at = options.at ?? ((i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString());
  return events.map((event, index) => {
    const metadata: EventMetadata = { accountId: options.accountId ?? null, occurredAt: at(index) };
    return { ...event, stream, revision: BigInt(index), position: (options.firstPosition ?? 1n) + BigInt(index), metadata };
  });
}

/** Folds events through a projection's pure `evolve`, in order. Returns documents by id (deleted ones absent). */
export function project<Doc extends ReadModelDoc, E extends DomainEvent>(projection: Projection<Doc, E>, events: readonly RecordedEvent[]): Map<string, Doc> {
  const docs = new Map<string, Doc | null>();
  for (const event of events) {
    const handled = handledEvent(projection.handles, event);
    if (!handled) continue;
    for (const id of projection.ids(handled)) docs.set(id, projection.evolve(docs.get(id) ?? null, handled, id));
  }
  const out = new Map<string, Doc>();
  for (const [id, doc] of docs) if (doc) out.set(id, doc);
  return out;
}
