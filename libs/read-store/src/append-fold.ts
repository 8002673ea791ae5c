import { RecordedEvent } from '../../core/src/event';
import { Projection, ReadModelDoc } from '../../core/src/projection';
import { foldFrom } from './projection-fold';
import { DocWrite, ReadStore, StoredDoc } from './read-store.port';
import { GAP_LIMIT, PAGE, StreamSource } from './stream-source';

/** One collection an append touches: the documents `ids` of `projection` in it, and whether it is a generation being built. */
export interface AppendTarget {
  projection: Projection;
  collection: string;
  ids: string[];
  building: boolean;
}

/**
 * The writes bringing documents `ids` of one collection (`stored`: those found) up to `appended`. A
 * document reflecting an older revision is folded on from there; an absent one is new only as far as
 * the collection's checkpoint says the stream's earlier events were applied, and the rest of them are
 * folded in first. A building generation far behind is left to its builder, which reaches these events anyway.
 */
export async function foldOnto(readStore: ReadStore, target: AppendTarget, stored: StoredDoc[], appended: RecordedEvent[], source: StreamSource): Promise<DocWrite[]> {
  const { projection, collection, ids, building } = target;
  const first = appended[0].revision;
  const start = new Map<string, { doc: ReadModelDoc | null; revision: bigint }>();
  const take = (docs: StoredDoc[]) => {
    for (const { doc, revision } of docs) start.set(doc.id, { doc, revision });
  };
  take(stored);
  let absent = ids.filter((id) => !start.has(id));
  if (absent.length > 0) {
    if (first === 0n) {
      for (const id of absent) start.set(id, { doc: null, revision: -1n });
    } else {
      // The checkpoint first, then the documents again: one the daemon wrote before its checkpoint moved is then seen.
      const checkpoint = (await readStore.getCheckpoint(collection)) ?? -1n;
      take(await readStore.getMany(collection, absent));
      absent = absent.filter((id) => !start.has(id));
      if (absent.length > 0) {
        const floor = await source.lastAppliedRevision(checkpoint, building ? PAGE : GAP_LIMIT);
        if (floor === null) return [];
        for (const id of absent) start.set(id, { doc: null, revision: floor });
      }
    }
  }
  let from = first;
  for (const { revision } of start.values()) if (revision + 1n < from) from = revision + 1n;
  if (building && first - from > BigInt(PAGE)) return [];
  const events = from < first ? [...(await source.range(from)), ...appended] : appended;
  return foldFrom(projection, start, events);
}
