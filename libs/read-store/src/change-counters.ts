/**
 * What an adapter that sees every write to its store can tell in-process caches: a token that
 * changes whenever a document of one of the given collections may have changed. Each write bumps
 * its collection's counter to a new, never reused value; a change of layout (a collection made or
 * dropped, a generation switched through the meta records) bumps every token at once; `external`
 * is the adapter's count of commits made by other processes, which it cannot attribute.
 */
export class ChangeCounters {
  private readonly counters = new Map<string, number>();
  private sequence = 0;
  private layout = 0;

  touch(collection: string): void {
    this.counters.set(collection, ++this.sequence);
  }

  touchLayout(): void {
    this.layout = ++this.sequence;
  }

  token(collections: readonly string[], external = 0): string {
    let token = `${external}.${this.layout}`;
    for (const collection of collections) token += `.${this.counters.get(collection) ?? 0}`;
    return token;
  }
}
