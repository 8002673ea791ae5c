import { DomainEvent, RecordedEvent } from './event';

/** A field a read model can be filtered or sorted on; every adapter builds an index for it. */
export interface IndexDeclaration {
  field: string;
  /** Array fields are filtered with `contains`. */
  array?: boolean;
}

export interface ReadModelDoc {
  id: string;
  [field: string]: unknown;
}

declare const docType: unique symbol;

/**
 * A read-model collection's name, carrying the type of its documents so that reads infer it. Still a
 * string at run time (adapters see names); a plain string is accepted where a handle is, untyped.
 */
export type Collection<Doc extends ReadModelDoc = ReadModelDoc> = string & { readonly [docType]?: Doc };

/** Names a collection that no projection owns (the outbox, idempotency records) with its document type. */
export function collectionOf<Doc extends ReadModelDoc>(name: string): Collection<Doc> {
  return name;
}

/**
 * A read model built from the log. Every document comes from exactly one stream and stores the
 * stream revision it reflects, so applying an event twice, or a stale one, changes nothing.
 * `E` is the union of the events it reads (from one or several streams); the engine hands over only
 * events whose type is in `handles` (see `handledEvent`), so `ids` and `evolve` narrow by `event.type`.
 * Lists hold them as plain `Projection`s (method parameters are bivariant); `handledEvent` keeps that sound.
 */
export interface Projection<Doc extends ReadModelDoc = ReadModelDoc, E extends DomainEvent = DomainEvent> {
  name: string;
  /** Bumped when the shape changes; a new version fills beside the old one, then takes over. */
  version: number;
  /** Event types this projection reads; all others are skipped without a lookup. */
  handles: readonly E['type'][];
  indexes: readonly IndexDeclaration[];
  /** The sort lists use; always tied by id in the same direction. */
  sortField?: string;
  /** Documents the event touches (usually one). */
  ids(event: RecordedEvent<E>): string[];
  /** Pure and synchronous: returns the new document, or null to delete it. */
  evolve(doc: Doc | null, event: RecordedEvent<E>, id: string): Doc | null;
}
