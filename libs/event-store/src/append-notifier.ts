/** Wakes the subscriptions of one store instance when that instance commits new events. */
export class AppendNotifier {
  private readonly waiting = new Set<() => void>();

  /** Resolves on the next `notify()`, when the signal aborts, or after `timeoutMs` when given. */
  wait(signal: AbortSignal, timeoutMs?: number): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(wake, timeoutMs);
      this.waiting.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }

  notify(): void {
    for (const wake of [...this.waiting]) wake();
  }
}
