import { RecordedEvent } from '../../core/src/event';
import { Projection } from '../../core/src/projection';
import { InlineAccess } from './engine-ports';
import { applyEvents, touchedIds } from './projection-fold';
import { StoredDoc } from './read-store.port';

/** Documents kept: three a check (its timer and two rollups) for more checks than the benchmarks ping, a few MB. */
const KEPT = 4096;

/**
 * The documents inline projections wrote last, and those a caller just read (the Ping intake target: a ping's
 * timer and rollups are folded without being read back and parsed), by collection and id, each with its stream
 * and revision R. A document folded from one stream alone is the stored copy when an append to that stream lands
 * at R + 1: the append proves the stream is at R, the event at R committed with what its append wrote, and a
 * collection applied inline has applied every event before the append. What an append wrote is forgotten with it
 * when it fails; the event store has everything forgotten when a batch is taken back or another connection
 * commits (`forget`). Each copy is used once, then replaced by what the append writes; the oldest go past KEPT.
 */
export class KnownDocs {
  /** By id alone (a key joined with the collection's name cost more than the rest of a lookup): ids two collections share take turns. */
  private readonly docs = new Map<string, { collection: string; stream: string; stored: StoredDoc }>();

  constructor(private readonly access: InlineAccess | null) {}

  /** `stored`, a document of `collection` folded from `stream` alone, was just read outside any write (so it is committed). */
  note(collection: string, stream: string, stored: StoredDoc): void {
    if (!this.access) return;
    const key = stored.doc.id;
    this.docs.delete(key);
    this.docs.set(key, { collection, stream, stored });
    if (this.docs.size > KEPT) this.docs.delete(this.docs.keys().next().value as string);
  }

  /** Applies one append's `events` to the documents of `projection` they touch in `collection`, inside the append. */
  apply(projection: Projection, collection: string, events: RecordedEvent[]): void {
    const ids = touchedIds(projection, events);
    if (ids.length === 0) return;
    const stream = events[0].stream;
    try {
      const writes = applyEvents(projection, events, this.storedOf(collection, ids, events));
      this.access!.writeMany(collection, writes);
      for (const { doc, revision } of writes) if (doc) this.note(collection, stream, { doc, revision });
    } catch (error) {
      // The append is taken back, with whatever the batch's earlier projections wrote for it.
      this.forget();
      throw error;
    }
  }

  forget(): void {
    this.docs.clear();
  }

  /** The stored documents `ids` of `collection` before `events` (one append): those known, the others read now. */
  private storedOf(collection: string, ids: string[], events: readonly RecordedEvent[]): StoredDoc[] {
    const access = this.access!;
    if (this.docs.size === 0) return access.getMany(collection, ids);
    const known: StoredDoc[] = [];
    const rest: string[] = [];
    for (const id of ids) {
      const entry = this.docs.get(id);
      if (entry?.collection !== collection) {
        rest.push(id);
        continue;
      }
      this.docs.delete(id);
      if (entry.stream === events[0].stream && entry.stored.revision + 1n === events[0].revision) known.push(entry.stored);
      else rest.push(id);
    }
    return rest.length === 0 ? known : [...known, ...access.getMany(collection, rest)];
  }
}
