import { Projection } from '../../core/src/projection';
import { EventStore } from '../../event-store/src/event-store.port';
import { collectionName, META_PREFIX, ProjectionMeta } from './projection-generations';
import { ReadStore } from './read-store.port';

export interface ProjectionStatus {
  name: string;
  version: number;
  generation: number;
  collection: string;
  checkpoint: string | null;
  head: string | null;
  /** Events of the log this collection has not applied yet (counted up to LAG_CAP). */
  lag: number;
  building: { collection: string; checkpoint: string | null } | null;
}

/** Lag is counted up to this many events (one page); more reads as this. */
const LAG_CAP = 1000;

/** Each projection's serving generation, its checkpoint and lag behind the log head, and any build under way. */
export async function projectionStatus(
  readStore: ReadStore,
  eventStore: EventStore,
  projections: readonly Projection[],
  knownMeta: (name: string) => ProjectionMeta,
): Promise<ProjectionStatus[]> {
  const head = await eventStore.headPosition();
  const out: ProjectionStatus[] = [];
  for (const projection of projections) {
    const meta = (await readStore.getMeta<ProjectionMeta>(META_PREFIX + projection.name)) ?? knownMeta(projection.name);
    const collection = collectionName(projection.name, meta.active);
    const checkpoint = await readStore.getCheckpoint(collection);
    const building = meta.building ? collectionName(projection.name, meta.building) : null;
    out.push({
      name: projection.name,
      version: meta.active.version,
      generation: meta.active.generation,
      collection,
      checkpoint: checkpoint?.toString() ?? null,
      head: head?.toString() ?? null,
      lag: await eventsAfter(eventStore, checkpoint, head),
      building: building ? { collection: building, checkpoint: (await readStore.getCheckpoint(building))?.toString() ?? null } : null,
    });
  }
  return out;
}

/**
 * How many events of the log a collection has not applied, counted (positions are log bytes on
 * EventStoreDB) and capped at LAG_CAP, so a status costs one bounded read per projection.
 */
async function eventsAfter(eventStore: EventStore, checkpoint: bigint | null, head: bigint | null): Promise<number> {
  if (head === null || (checkpoint !== null && checkpoint >= head)) return 0;
  return (await eventStore.readAll({ after: checkpoint ?? undefined, maxCount: LAG_CAP })).length;
}
