import { RecordedEvent } from '../../core/src/event';
import { InlineAccess } from './engine-ports';
import { StoredDoc } from './read-store.port';

/** Documents kept waiting for their append: more than the pings in flight at once. */
const KEPT = 1000;

/**
 * Documents just read, by collection and id, that the embedded append folds onto instead of reading them again
 * (the Ping intake target: a ping's timer is read once, by the token lookup). A document folded from one stream
 * alone, read at that stream's revision R, is the stored copy when an append to the stream lands at R + 1: the
 * append proves the stream was at R, and a collection applied inline has applied every event before the append.
 * Each is used once; the oldest are forgotten past KEPT (a lookup whose append never came). Without inline
 * access (production stores) nothing is kept.
 */
export class JustRead {
  private readonly docs = new Map<string, { stream: string; stored: StoredDoc }>();

  constructor(private readonly access: InlineAccess | null) {}

  /** `stored`, a document of `collection` folded from `stream` alone, was just read. */
  note(collection: string, stream: string, stored: StoredDoc): void {
    if (!this.access) return;
    const key = `${collection}\u0000${stored.doc.id}`;
    this.docs.delete(key);
    this.docs.set(key, { stream, stored });
    if (this.docs.size > KEPT) this.docs.delete(this.docs.keys().next().value as string);
  }

  /** The stored documents `ids` of `collection` before `events` (one append): those just read, the others read now. */
  storedOf(collection: string, ids: string[], events: readonly RecordedEvent[]): StoredDoc[] {
    const access = this.access!;
    if (this.docs.size === 0) return access.getMany(collection, ids);
    const known: StoredDoc[] = [];
    const rest: string[] = [];
    for (const id of ids) {
      const key = `${collection}\u0000${id}`;
      const entry = this.docs.get(key);
      if (entry) this.docs.delete(key);
      if (entry && entry.stream === events[0].stream && entry.stored.revision + 1n === events[0].revision) known.push(entry.stored);
      else rest.push(id);
    }
    return rest.length === 0 ? known : [...known, ...access.getMany(collection, rest)];
  }
}
