/** A failed attempt: `retryable` for timeouts, connection errors, 5xx and 429; `retryAfterMs` from Retry-After. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}
