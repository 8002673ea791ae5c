import { randomUUID } from 'node:crypto';

/** One filling of a projection's collection: its shape (version) and which build of that shape. */
export interface Generation {
  version: number;
  generation: number;
}

/** Stored per projection under META_PREFIX: the generation that serves and the one being built. */
export interface ProjectionMeta {
  active: Generation;
  building: Generation | null;
}

export const META_PREFIX = 'projection:';
/** A meta record renewed after every change of any projection's generations: followers read it alone. */
export const GENERATIONS_STAMP = 'projection-generations';
/** How long a replaced generation stays readable for processes that have not noticed the switch. */
export const RETIRE_GRACE_MS = 3000;
export const META_REFRESH_MS = 1000;
/** With a log watch, how long the daemon gathers events between passes while they keep coming. */
export const BATCH_MS = 1000;
/** A writer older generations than this refreshes them before applying its events. */
export const META_MAX_AGE_MS = 2000;
/** How long a new generation is published as building before it serves, so that every writer applies to it. */
export const SWITCH_GRACE_MS = 3000;

export function collectionName(projection: string, generation: Generation): string {
  return `${projection}_v${generation.version}_g${generation.generation}`;
}

export function nextGeneration(meta: ProjectionMeta): number {
  return Math.max(meta.active.generation, meta.building?.generation ?? 0) + 1;
}

export function newStamp(): string {
  return randomUUID();
}
