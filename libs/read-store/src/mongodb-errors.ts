import { StoreUnavailableError } from '../../core/src/errors';

type Driver = typeof import('mongodb');

// What the server answers while it cannot serve: deadlines, elections, shutdowns, unreachable peers.
const UNAVAILABLE_CODES = new Set([6, 7, 50, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);
// Driver errors it does not export: no connection free in time, a pool closed under a call.
const UNAVAILABLE_NAMES = new Set(['MongoWaitQueueTimeoutError', 'MongoPoolClosedError', 'MongoPoolClearedError']);
export const DUPLICATE_KEY = 11000;
/** A server before 8.0 has no cross-collection bulkWrite. */
export const COMMAND_NOT_FOUND = 59;

/** Whatever says the server cannot answer now (a retry may succeed): StoreUnavailableError to callers. */
export function isUnavailable(driver: Driver, error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return false;
  return (
    error instanceof driver.MongoNetworkError ||
    error instanceof driver.MongoServerSelectionError ||
    error instanceof driver.MongoTopologyClosedError ||
    error instanceof driver.MongoClientClosedError ||
    error instanceof driver.MongoNotConnectedError ||
    error instanceof driver.MongoOperationTimeoutError ||
    // The write was not acknowledged as asked (no majority in time); a retry is harmless, revisions guard it.
    error instanceof driver.MongoWriteConcernError ||
    (error instanceof Error && UNAVAILABLE_NAMES.has(error.name)) ||
    (error instanceof driver.MongoError && (error.hasErrorLabel('RetryableWriteError') || error.hasErrorLabel('TransientTransactionError'))) ||
    (error instanceof driver.MongoServerError && UNAVAILABLE_CODES.has(Number(error.code)))
  );
}

/** True when every failure of an unordered bulk write is a duplicate key: upserts that met a newer revision, no-ops. */
export function onlyDuplicateKeys(error: unknown, duplicateKey = DUPLICATE_KEY): boolean {
  const failures = (error as { writeErrors?: { code: number }[] | Map<number, { code: number }> }).writeErrors;
  if (!failures) return false;
  const list = failures instanceof Map ? [...failures.values()] : failures;
  return list.length > 0 && list.every((failure) => failure.code === duplicateKey);
}
