import { RecordedEvent } from '../../core/src/event';
import { EventStore } from '../../event-store/src/event-store.port';

/** How many events one read of the log takes. */
export const PAGE = 1000;
/** The most of a stream's history one append reads to bring a document the daemon has not reached up to date. */
export const GAP_LIMIT = 10 * PAGE;

/**
 * The events of one stream before an append (revisions below `first`): from what the command read
 * (`history`, which ends just before the append when it is not empty), else read on demand.
 */
export class StreamSource {
  private history: readonly RecordedEvent[];

  constructor(
    private readonly eventStore: EventStore,
    private readonly stream: string,
    private readonly first: bigint,
    history: readonly RecordedEvent[],
  ) {
    this.history = history;
  }

  /** Events from revision `from` up to the append. */
  async range(from: bigint): Promise<RecordedEvent[]> {
    const known = this.history.length > 0 && this.history[0].revision <= from && this.history[this.history.length - 1].revision === this.first - 1n;
    if (known) return this.history.filter((event) => event.revision >= from);
    return this.eventStore.readStream(this.stream, { fromRevision: from, maxCount: Number(this.first - from) });
  }

  /**
   * The newest revision before the append whose event is at or before `checkpoint` (all of the stream
   * a collection with that checkpoint has applied), -1 when none is; null when finding it takes more
   * than `limit` events.
   */
  async lastAppliedRevision(checkpoint: bigint, limit: number): Promise<bigint | null> {
    let from = this.first - 1n;
    let seen = 0;
    const tail = this.history[this.history.length - 1];
    if (tail?.revision === from) {
      for (let i = this.history.length - 1; i >= 0; i--) if (this.history[i].position <= checkpoint) return this.history[i].revision;
      from = this.history[0].revision - 1n;
      seen = this.history.length;
    } else {
      this.history = [];
    }
    // One event first (a collection caught up has applied the one before the append), then growing pages.
    let size = 1;
    while (from >= 0n && seen < limit) {
      const count = Math.min(size, limit - seen);
      const page = await this.eventStore.readStream(this.stream, { direction: 'backwards', fromRevision: from, maxCount: count });
      // Kept in order, so that `range` serves the gap from them rather than reading it again.
      this.history = [...page].reverse().concat(this.history);
      for (const event of page) if (event.position <= checkpoint) return event.revision;
      // Older events are gone (retention) or never were: nothing before these was applied.
      if (page.length < count) return page.length > 0 ? page[page.length - 1].revision - 1n : -1n;
      from = page[page.length - 1].revision - 1n;
      seen += page.length;
      size = Math.min(size * 4, PAGE);
    }
    return from < 0n ? -1n : null;
  }
}
