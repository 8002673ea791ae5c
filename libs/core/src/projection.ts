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
  /**
   * Each document is created by one event and never changed afterwards (its id is unique to that
   * event, an event id say): the inline path writes it without reading it first. The stores' revision
   * guard still keeps an event applied twice from writing it twice.
   */
  immutable?: boolean;
  /**
   * Embedded mode: documents applied by this process stay in its memory and are written to the
   * database every 2 s or so (riding in group commits), each once however often it changed (hot read
   * models such as heartbeat timers and rollups). This process reads them at once; others after the
   * write or their own catch-up. The events are durable before any of it; a crash replays from the
   * written checkpoint.
   */
  writeBack?: boolean;
  /** Documents the event touches (usually one). */
  ids(event: RecordedEvent): string[];
  /** Pure and synchronous: returns the new document, or null to delete it. */
  evolve(doc: Doc | null, event: RecordedEvent, id: string): Doc | null;
}
