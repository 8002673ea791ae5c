import { RecordedEvent } from './event';

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

/**
 * A read model built from the log. Every document comes from exactly one stream and stores the
 * stream revision it reflects, so applying an event twice, or a stale one, changes nothing.
 */
export interface Projection<Doc extends ReadModelDoc = ReadModelDoc> {
  name: string;
  /** Bumped when the shape changes; a new version fills beside the old one, then takes over. */
  version: number;
  /** Event types this projection reads; all others are skipped without a lookup. */
  handles: readonly string[];
  indexes: readonly IndexDeclaration[];
  /** The sort lists use; always tied by id in the same direction. */
  sortField?: string;
  /** Documents the event touches (usually one). */
  ids(event: RecordedEvent): string[];
  /** Pure and synchronous: returns the new document, or null to delete it. */
  evolve(doc: Doc | null, event: RecordedEvent, id: string): Doc | null;
}
