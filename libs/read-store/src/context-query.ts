import { Query } from '@nestjs/cqrs';

/**
 * A question to a context's read side: a member of the context's typed union `Q`, answered with `A[type]`.
 * One subclass per context (`IncidentsQuery`), one query handler each; the answer type follows from the
 * question's `type`, so `queries.execute(new IncidentsQuery({ type: 'GetIncident', … }))` is typed.
 */
export abstract class ContextQuery<Q extends { type: string }, A extends { [K in Q['type']]: unknown }, T extends Q['type']> extends Query<A[T]> {
  constructor(readonly query: Q & { type: T }) {
    super();
  }
}
