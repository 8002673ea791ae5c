import { DomainEvent } from './event';

/** A pure aggregate: no Nest, no I/O. `decide` throws a VigilError when the command is refused. */
export interface Decider<State, Command, Event extends DomainEvent> {
  initialState: () => State;
  decide: (command: Command, state: State) => Event[];
  evolve: (state: State, event: Event) => State;
}

export function fold<State, Event extends DomainEvent>(
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
  events: Iterable<Event>,
): State {
  let state = decider.initialState();
  for (const event of events) state = decider.evolve(state, event);
  return state;
}
