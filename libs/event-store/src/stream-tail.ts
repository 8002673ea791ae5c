/** One event the stream index does not hold yet. */
export interface TailEvent {
  revision: bigint;
  position: bigint;
}

/**
 * The events of the log after the stream index's `indexed_through`, by stream, in this process's
 * memory: what the SQLite event store reads beside the index. Each stream's events are kept in
 * revision order (revisions grow with positions within a stream).
 */
export class StreamTail {
  private readonly byStream = new Map<string, TailEvent[]>();
  private events = 0;

  get size(): number {
    return this.events;
  }

  add(stream: string, revision: bigint, position: bigint): void {
    const list = this.byStream.get(stream);
    if (list) list.push({ revision, position });
    else this.byStream.set(stream, [{ revision, position }]);
    this.events += 1;
  }

  /** Newest revision the tail holds for the stream. */
  lastRevision(stream: string): bigint | undefined {
    const list = this.byStream.get(stream);
    return list ? list[list.length - 1].revision : undefined;
  }

  of(stream: string): readonly TailEvent[] {
    return this.byStream.get(stream) ?? [];
  }

  /** Streams with events at or before `position`, in key order. */
  streamsThrough(position: bigint): string[] {
    const streams: string[] = [];
    for (const [stream, list] of this.byStream) if (list[0].position <= position) streams.push(stream);
    return streams.sort();
  }

  /** Forgets the events at or before `position` (the index holds them now). */
  dropThrough(position: bigint): void {
    for (const [stream, list] of this.byStream) {
      let keep = 0;
      while (keep < list.length && list[keep].position <= position) keep += 1;
      if (keep === 0) continue;
      this.events -= keep;
      if (keep === list.length) this.byStream.delete(stream);
      else list.splice(0, keep);
    }
  }

  clear(): void {
    this.byStream.clear();
    this.events = 0;
  }
}
