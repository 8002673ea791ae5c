import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { IdGenerator } from '../../core/src/ids';
import { RetryContext, RetryScope } from '../../event-store/src/command-runner';

/**
 * One attempt at a request that carries an Idempotency-Key, as the code it runs sees it: the ids it makes
 * and the requests that tried the same key before it. A retry makes the same ids as the first attempt
 * (a create lands on the same stream), and the command runner finds the events an earlier attempt
 * appended there instead of appending them again.
 */
export interface IdempotentAttempt extends RetryScope {
  /** Set once the key is claimed: the record's secret seed and creation time. */
  seed: string | null;
  createdAt: number;
  /** How many ids this attempt made so far. */
  made: number;
}

const attempts = new AsyncLocalStorage<IdempotentAttempt>();

export function newAttempt(): IdempotentAttempt {
  return { seed: null, createdAt: 0, made: 0, priorRequestIds: new Set(), runs: new Map() };
}

/** Runs `work` (and everything it starts) inside the attempt. */
export function runInAttempt<T>(attempt: IdempotentAttempt, work: () => T): T {
  return attempts.run(attempt, work);
}

/** What the command runner asks: which earlier attempts of this request may have written. */
export const idempotentRetries: RetryContext = {
  current: () => {
    const attempt = attempts.getStore();
    return attempt && attempt.priorRequestIds.size > 0 ? attempt : undefined;
  },
};

/**
 * Ids that repeat across attempts of one idempotent request: UUID v7 with the record's creation time and
 * bits from (seed, n), where the seed is random and kept in the record. Elsewhere, the wrapped generator.
 */
export class RetryStableIds implements IdGenerator {
  constructor(private readonly inner: IdGenerator) {}

  next(): string {
    const attempt = attempts.getStore();
    if (!attempt || attempt.seed === null) return this.inner.next();
    const random = createHash('sha256').update(`${attempt.seed}:${attempt.made++}`).digest().subarray(0, 16);
    return uuidv7({ msecs: attempt.createdAt, random });
  }
}
