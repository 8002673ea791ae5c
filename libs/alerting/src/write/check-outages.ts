import { Inject, Injectable } from '@nestjs/common';
import { collectionOf } from '../../../core/src/projection';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VersionedRecord, VersionedRecords } from '../../../read-store/src/versioned-records';
import { CheckDoc, FailedData, PingReceivedData } from '../../../heartbeats/src/heartbeats.api';

/** A check's current outage, as the notifier follows it: escalation counts and the recovery's downtime. */
export interface OutageDoc {
  id: string;
  accountId: string;
  outageId: string;
  startedAt: string;
  failedRuns: number;
  recoveredAt: string | null;
  /** Log position of the last event applied (decimal), so an event handled again is recognised. */
  position?: string;
  [field: string]: unknown;
}

export const OUTAGES = collectionOf<OutageDoc>('alert_outages');

/** The position of the last event applied; a record without `position` holds it as its version − 1. */
const appliedAt = (stored: VersionedRecord<OutageDoc>): bigint => (stored.doc.position === undefined ? stored.version - 1n : BigInt(stored.doc.position));

/** Racing writers retry against the winner's record; a third loss means a later event owns it. */
const TRIES = 3;

/** The outages the notifier follows, one record per check, changed by compare-and-set. */
@Injectable()
export class CheckOutages {
  private ready: Promise<void> | null = null;
  private readonly records: VersionedRecords<OutageDoc>;

  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {
    this.records = new VersionedRecords(store, OUTAGES);
  }

  private async ensure(): Promise<VersionedRecords<OutageDoc>> {
    this.ready ??= this.store.ensureCollection({ name: OUTAGES, indexes: [] });
    await this.ready;
    return this.records;
  }

  async get(checkId: string): Promise<OutageDoc | null> {
    return (await (await this.ensure()).get(checkId))?.doc ?? null;
  }

  /**
   * The outage after the FAILING at `position` (a first one opens it, a later one counts one more run),
   * or null when there is none to follow or a later event has moved it on. A FAILING handled before
   * (a crash, a second worker) gives what that pass stored, so its deliveries come out the same.
   */
  async follow(check: Pick<CheckDoc, 'id' | 'accountId'>, position: bigint, data: FailedData): Promise<OutageDoc | null> {
    const records = await this.ensure();
    for (let tries = 0; tries < TRIES; tries++) {
      const previous = await records.get(check.id);
      if (previous && appliedAt(previous) >= position) return appliedAt(previous) === position ? previous.doc : null;
      let outage: OutageDoc;
      if (data.first) {
        outage = { id: check.id, accountId: check.accountId, outageId: data.eventId, startedAt: data.deadline, failedRuns: 1, recoveredAt: null };
      } else {
        if (!previous || previous.doc.recoveredAt !== null) return null;
        outage = { ...previous.doc, failedRuns: previous.doc.failedRuns + 1 };
      }
      outage.position = String(position);
      if (await (previous ? records.compareAndSet(outage, previous.version) : records.insert(outage))) return outage;
    }
    return null;
  }

  /** The outage the ping at `position` ends (its first recovery time kept), or null when it is not the one followed. */
  async recover(position: bigint, data: PingReceivedData): Promise<(OutageDoc & { recoveredAt: string }) | null> {
    const records = await this.ensure();
    const stored = await records.get(data.checkId);
    if (!stored || stored.doc.outageId !== data.recoveredFrom) return null;
    const outage = { ...stored.doc, recoveredAt: stored.doc.recoveredAt ?? data.at };
    // A lost race is another pass of this ping (or a later event): the recovery it reports is the same.
    if (appliedAt(stored) < position) await records.compareAndSet({ ...outage, position: String(position) }, stored.version);
    return outage;
  }
}
