import { ConcurrencyError } from '../../core/src/errors';
import { ExpectedRevision } from './event-store.port';

/** Throws the port's ConcurrencyError unless `expected` holds for a stream at `current` (null: no stream). */
export function checkExpectedRevision(stream: string, expected: ExpectedRevision, current: bigint | null): void {
  const holds =
    expected === 'any' ||
    (expected === 'no_stream' && current === null) ||
    (expected === 'stream_exists' && current !== null) ||
    expected === current;
  if (!holds) throw new ConcurrencyError(stream, String(expected), current === null ? 'no_stream' : String(current));
}
