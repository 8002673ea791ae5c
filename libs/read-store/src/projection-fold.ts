import { DomainEvent, handledEvent, RecordedEvent } from '../../core/src/event';
import { Projection, ReadModelDoc } from '../../core/src/projection';
import { DocWrite, StoredDoc } from './read-store.port';

/** Each document `events` touch, once, in order of first touch. */
export function touchedIds<Doc extends ReadModelDoc, E extends DomainEvent>(projection: Projection<Doc, E>, events: readonly RecordedEvent[]): string[] {
  const ids = new Set<string>();
  for (const event of events) {
    const handled = handledEvent(projection.handles, event);
    if (handled) for (const id of projection.ids(handled)) ids.add(id);
  }
  return [...ids];
}

/**
 * The one apply function: folds `events` into the documents they touch, starting from `stored`, and
 * returns the writes. An event not newer than a document's revision leaves it alone, so replays and
 * duplicates change nothing.
 */
export function applyEvents<Doc extends ReadModelDoc, E extends DomainEvent>(
  projection: Projection<Doc, E>,
  events: readonly RecordedEvent[],
  stored: readonly StoredDoc<Doc>[],
): DocWrite[] {
  const docs = new Map<string, { doc: Doc | null; revision: bigint; changed: boolean }>();
  for (const { doc, revision } of stored) docs.set(doc.id, { doc, revision, changed: false });
  for (const event of events) {
    const handled = handledEvent(projection.handles, event);
    if (!handled) continue;
    for (const id of projection.ids(handled)) {
      const current = docs.get(id) ?? { doc: null, revision: -1n, changed: false };
      if (current.doc && current.revision >= event.revision) continue;
      const next = projection.evolve(current.doc, handled, id);
      if (next || current.doc) docs.set(id, { doc: next, revision: event.revision, changed: true });
    }
  }
  const writes: DocWrite[] = [];
  for (const [id, { doc, revision, changed }] of docs) if (changed) writes.push({ id, doc, revision });
  return writes;
}

/**
 * Folds `events` into the documents of `start` only (each from the revision it reflects, a null doc
 * being absent as of that revision) and returns the writes of those that changed.
 */
export function foldFrom(projection: Projection, start: Map<string, { doc: ReadModelDoc | null; revision: bigint }>, events: readonly RecordedEvent[]): DocWrite[] {
  const changed = new Set<string>();
  for (const event of events) {
    if (!projection.handles.includes(event.type)) continue;
    for (const id of projection.ids(event)) {
      const current = start.get(id);
      if (!current || current.revision >= event.revision) continue;
      const next = projection.evolve(current.doc, event, id);
      if (!next && !current.doc) continue;
      start.set(id, { doc: next, revision: event.revision });
      changed.add(id);
    }
  }
  return [...changed].map((id) => ({ id, doc: start.get(id)!.doc, revision: start.get(id)!.revision }));
}

/** Projections by the event types they handle, in registration order (the Ping intake target: an append visits only the read models its events can touch, not every one). */
export class ProjectionsByType {
  private readonly byType = new Map<string, Projection[]>();

  add(projection: Projection): void {
    for (const type of new Set(projection.handles)) this.byType.set(type, [...(this.byType.get(type) ?? []), projection]);
  }

  /** The projections that handle any of `events`, each once. */
  of(events: readonly RecordedEvent[]): readonly Projection[] {
    if (events.length === 1) return this.byType.get(events[0].type) ?? [];
    return [...new Set(events.flatMap((event) => this.byType.get(event.type) ?? []))];
  }
}
