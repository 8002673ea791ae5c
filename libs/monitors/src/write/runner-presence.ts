import { Inject, Injectable } from '@nestjs/common';
import { collectionOf } from '../../../core/src/projection';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VersionedRecords } from '../../../read-store/src/versioned-records';

/** How long a runner's lease lasts: a runner silent for longer loses its runs to the location's other runners. */
export const LEASE_MS = 10_000;
/** A lost runner stays listed this long, then its record goes. */
const FORGET_MS = 86_400_000;

export interface RunnerIdentity {
  accountId: string;
  location: string;
  keyId: string;
  runner: string;
}

/** One runner process: the last time it leased. */
export interface PresenceDoc extends RunnerIdentity {
  [field: string]: unknown;
  id: string;
  /** `<accountId>:<location>`, indexed: a location's runners. */
  place: string;
  lastSeen: number;
}

export const RUNNER_PRESENCE = collectionOf<PresenceDoc>('runner_presence');

export const placeOf = (accountId: string, location: string): string => `${accountId}:${location}`;
export const isActive = (doc: PresenceDoc, now: number): boolean => now - doc.lastSeen <= LEASE_MS;

/**
 * Runner processes by location, in the read store every instance shares (records no projection owns,
 * compare-and-set): a lease call says a runner lives; its silence, that it is lost.
 */
@Injectable()
export class RunnerPresence {
  private readonly records: VersionedRecords<PresenceDoc>;
  private ready: Promise<void> | null = null;

  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {
    this.records = new VersionedRecords(store, RUNNER_PRESENCE);
  }

  private ensure(): Promise<void> {
    this.ready ??= this.store.ensureCollection({ name: RUNNER_PRESENCE, indexes: [{ field: 'place' }, { field: 'lastSeen' }] });
    return this.ready;
  }

  /** Records that `runner` of the key leased at `now`. */
  async beat(fields: RunnerIdentity, now: number): Promise<void> {
    await this.ensure();
    const id = `${fields.keyId}:${fields.runner}`;
    const doc: PresenceDoc = { ...fields, id, place: placeOf(fields.accountId, fields.location), lastSeen: now };
    for (let attempt = 0; attempt < 5; attempt++) {
      const stored = await this.records.get(id);
      if (stored && stored.doc.lastSeen >= now) return;
      if (await (stored ? this.records.compareAndSet(doc, stored.version) : this.records.insert(doc))) return;
    }
  }

  /** The location's runners seen within a day, active or lost, by id. */
  async ofPlace(accountId: string, location: string, now: number): Promise<PresenceDoc[]> {
    await this.ensure();
    const docs = await this.store.find(RUNNER_PRESENCE, { filters: [{ field: 'place', op: 'eq', value: placeOf(accountId, location) }], sort: { field: 'id', direction: 'asc' }, limit: 1000 });
    return docs.filter((d) => now - d.lastSeen <= FORGET_MS);
  }

  /** Every runner seen within a day (for the location watch). */
  async recent(now: number): Promise<PresenceDoc[]> {
    await this.ensure();
    return this.store.find(RUNNER_PRESENCE, { filters: [{ field: 'lastSeen', op: 'gt', value: now - FORGET_MS }], sort: { field: 'lastSeen', direction: 'asc' }, limit: 10_000 });
  }

  /** Drops the records of runners silent for a day. */
  async forget(now: number): Promise<void> {
    await this.ensure();
    const old = await this.store.find(RUNNER_PRESENCE, { filters: [{ field: 'lastSeen', op: 'lte', value: now - FORGET_MS }], limit: 500 });
    for (const doc of old) {
      const stored = await this.records.get(doc.id);
      if (stored && now - stored.doc.lastSeen > FORGET_MS) await this.records.compareAndDelete(doc.id, stored.version);
    }
  }
}
