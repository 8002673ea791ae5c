/** One error channel: domain and application code throw these; the HTTP filter maps them once. */
export abstract class VigilError extends Error {
  abstract readonly statusCode: number;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The base of the errors answered with one status: `class ConflictError extends WithStatus(409) {}`. */
function WithStatus<S extends number>(statusCode: S) {
  return class extends VigilError {
    readonly statusCode = statusCode;
  };
}

export interface ViolationDetail {
  path: string;
  message: string;
}

export class ValidationError extends WithStatus(400) {
  constructor(
    message: string,
    readonly details: ViolationDetail[] = [],
  ) {
    super(message);
  }

  static of(details: ViolationDetail[]): ValidationError {
    return new ValidationError('Validation failed', details);
  }
}

export class UnauthorizedError extends WithStatus(401) {}

export class ForbiddenError extends WithStatus(403) {}

export class NotFoundError extends WithStatus(404) {
  constructor(message = 'Not found') {
    super(message);
  }
}

export class ConflictError extends WithStatus(409) {}

export class PayloadTooLargeError extends WithStatus(413) {}

/** A quota or limit is used up: 429 with Retry-After (seconds until it frees). */
export class TooManyRequestsError extends WithStatus(429) {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export class PreconditionFailedError extends WithStatus(412) {
  constructor(message = 'If-Match does not match the current ETag') {
    super(message);
  }
}

export class StoreUnavailableError extends WithStatus(503) {
  constructor(message = 'A backing store is unavailable', cause?: unknown) {
    super(message);
    this.cause = cause;
  }
}

/** Raised by every event store adapter when an expected revision does not hold. */
export class ConcurrencyError extends WithStatus(409) {
  constructor(
    readonly stream: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`Stream ${stream} is at revision ${actual}, expected ${expected}`);
  }
}
