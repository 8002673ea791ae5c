import { DomainEvent, RecordedEvent } from './event';

/**
 * Acts on the event log in order, with a checkpoint of its own kept in the read store, so nothing it
 * must do is lost across a restart: the incident reactor, the notifier. Several processes may run the
 * same processor at once, and an event may come again after a crash: `handle` must be idempotent.
 * `E` is the union of the events it handles; the runner hands over only those (see `handledEvent`).
 */
export interface Processor<E extends DomainEvent = DomainEvent> {
  /** Unique and stable: names the stored checkpoint. */
  readonly name: string;
  /** Event types it reads; the others only move its checkpoint. */
  readonly handles: readonly E['type'][];
  /**
   * Where a processor without a checkpoint starts: the whole log, or the log's head when it first runs
   * (a notifier added to an old data set must not send yesterday's alerts).
   */
  readonly startAt: 'beginning' | 'head';
  /** A throw leaves the checkpoint before this event: it is handed over again on a later pass. */
  handle(event: RecordedEvent<E>): Promise<void>;
}
