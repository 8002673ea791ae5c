/** One event the stream index does not hold yet. */
export interface TailEvent {
  revision: bigint;
  position: bigint;
}

/** Revisions and positions at or below this convert to numbers exactly (2^53 − 1: far beyond any log). */
const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/** A bound to compare held positions with: beyond every one of them when it is beyond what they can be. */
const asNumber = (position: bigint): number => (position > MAX_EXACT ? Number.POSITIVE_INFINITY : Number(position));

/** A stream's events in the tail, as numbers: two unboxed numbers an event instead of an object and two bigints. */
interface StreamEvents {
  revisions: number[];
  positions: number[];
}

/**
 * The events of the log after the stream index's `indexed_through`, by stream, in this process's
 * memory: what the SQLite event store reads beside the index. Each stream's events are kept in
 * revision order (revisions grow with positions within a stream).
 *
 * Held as numbers: every appended event stays here for seconds (until the index takes it in), so
 * what it is held as is what the garbage collector moves out of the young generation, once per
 * event (an object and two bigints were ~80 bytes of it; two numbers in arrays are 16).
 */
export class StreamTail {
  private readonly byStream = new Map<string, StreamEvents>();
  private events = 0;

  get size(): number {
    return this.events;
  }

  /** Whether an event at this revision and position can be held exactly (the event store refuses an append that could not). */
  static holds(revision: bigint, position: bigint): boolean {
    return revision <= MAX_EXACT && position <= MAX_EXACT;
  }

  add(stream: string, revision: bigint, position: bigint): void {
    if (!StreamTail.holds(revision, position)) {
      throw new RangeError(`Stream ${stream}: revision ${revision} or position ${position} is beyond what the stream tail holds exactly`);
    }
    const list = this.byStream.get(stream);
    if (list) {
      list.revisions.push(Number(revision));
      list.positions.push(Number(position));
    } else {
      this.byStream.set(stream, { revisions: [Number(revision)], positions: [Number(position)] });
    }
    this.events += 1;
  }

  /** Newest revision the tail holds for the stream. */
  lastRevision(stream: string): bigint | undefined {
    const list = this.byStream.get(stream);
    return list ? BigInt(list.revisions[list.revisions.length - 1]) : undefined;
  }

  /** The stream's events in the tail, oldest first. */
  of(stream: string): TailEvent[] {
    const list = this.byStream.get(stream);
    if (!list) return [];
    const events: TailEvent[] = [];
    for (let i = 0; i < list.revisions.length; i++) events.push({ revision: BigInt(list.revisions[i]), position: BigInt(list.positions[i]) });
    return events;
  }

  /** How many of the stream's events the tail holds. */
  count(stream: string): number {
    return this.byStream.get(stream)?.revisions.length ?? 0;
  }

  /** Streams with events at or before `position`, in key order. */
  streamsThrough(position: bigint): string[] {
    const through = asNumber(position);
    const streams: string[] = [];
    for (const [stream, list] of this.byStream) if (list.positions[0] <= through) streams.push(stream);
    return streams.sort();
  }

  /** Forgets the events at or before `position` (the index holds them now). */
  dropThrough(position: bigint): void {
    const through = asNumber(position);
    for (const [stream, list] of this.byStream) {
      const { revisions, positions } = list;
      let keep = 0;
      while (keep < positions.length && positions[keep] <= through) keep += 1;
      if (keep === 0) continue;
      this.events -= keep;
      if (keep === positions.length) {
        this.byStream.delete(stream);
      } else {
        revisions.splice(0, keep);
        positions.splice(0, keep);
      }
    }
  }

  clear(): void {
    this.byStream.clear();
    this.events = 0;
  }
}
