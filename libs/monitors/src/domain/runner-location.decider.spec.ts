import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { specFor } from '../../../testing/src/given-when-then';
import { locationDecider, LocationEvent } from './location.decider';
import { RunnerKeyData, runnerKeyDecider, RunnerKeyEvent } from './runner-key.decider';
import { hashRunnerKey, newRunnerKey } from './runner-key-secret';
import { ownerOf } from '../write/runner-leases';

const keys = specFor(runnerKeyDecider);
const locations = specFor(locationDecider);
const KEY: RunnerKeyData = { id: 'k1', accountId: 'acc-1', location: 'lab', name: null, allowPrivateTargets: false, hash: 'h', prefix: 'vgr_abcd' };
const created: RunnerKeyEvent = { type: 'RunnerKeyCreated', data: KEY };
const observe = (activeRunners: number, at: string) => ({ type: 'ObserveLocation' as const, accountId: 'acc-1', location: 'lab', activeRunners, at });
const reporting = (at: string, downtimeMs: number | null): LocationEvent => ({ type: 'LocationRunnersReporting', data: { accountId: 'acc-1', location: 'lab', at, downtimeMs } });
const lost = (at: string): LocationEvent => ({ type: 'LocationRunnersLost', data: { accountId: 'acc-1', location: 'lab', at } });

describe('Runner key decider', () => {
  it('given nothing, when created, then RunnerKeyCreated; created twice is a conflict', () => {
    keys.given([]).when({ type: 'CreateRunnerKey', key: KEY }).then([created]);
    keys.given([created]).when({ type: 'CreateRunnerKey', key: KEY }).thenThrows(ConflictError);
  });

  it('given a key, when its account revokes it, then RunnerKeyRevoked once; another account finds nothing', () => {
    keys.given([created]).when({ type: 'RevokeRunnerKey', id: 'k1', accountId: 'acc-1' }).then([{ type: 'RunnerKeyRevoked', data: { id: 'k1', accountId: 'acc-1' } }]);
    keys.given([created, { type: 'RunnerKeyRevoked', data: { id: 'k1', accountId: 'acc-1' } }]).when({ type: 'RevokeRunnerKey', id: 'k1', accountId: 'acc-1' }).then([]);
    keys.given([created]).when({ type: 'RevokeRunnerKey', id: 'k1', accountId: 'acc-2' }).thenThrows(NotFoundError);
    keys.given([]).when({ type: 'RevokeRunnerKey', id: 'k1', accountId: 'acc-1' }).thenThrows(NotFoundError);
  });

  it('keeps only the hash of a new key', () => {
    const { command, runnerKey } = newRunnerKey({ id: 'k2', accountId: 'acc-1', location: 'lab', name: null, allowPrivateTargets: true });
    expect(runnerKey).toMatch(/^vgr_[A-Za-z0-9_-]{43}$/);
    expect(command.key.hash).toBe(hashRunnerKey(runnerKey));
    expect(JSON.stringify(command)).not.toContain(runnerKey);
  });
});

describe('Location decider', () => {
  it('given nothing, when a runner reports, then reporting without downtime; when none does, nothing', () => {
    locations.given([]).when(observe(1, 't1')).then([reporting('t1', null)]);
    locations.given([]).when(observe(0, 't1')).then([]);
  });

  it('given a reporting location, when its last runner stops, then lost; again, nothing', () => {
    locations.given([reporting('2026-01-01T00:00:00.000Z', null)]).when(observe(0, '2026-01-01T00:01:00.000Z')).then([lost('2026-01-01T00:01:00.000Z')]);
    locations.given([reporting('2026-01-01T00:00:00.000Z', null), lost('2026-01-01T00:01:00.000Z')]).when(observe(0, '2026-01-01T00:02:00.000Z')).then([]);
  });

  it('given a lost location, when a runner reports, then reporting with the downtime', () => {
    locations.given([reporting('2026-01-01T00:00:00.000Z', null), lost('2026-01-01T00:01:00.000Z')]).when(observe(2, '2026-01-01T00:03:00.000Z')).then([reporting('2026-01-01T00:03:00.000Z', 120_000)]);
  });
});

describe('Run ownership', () => {
  it('gives each monitor to one active runner, and only the lost runner’s monitors move', () => {
    const monitors = Array.from({ length: 300 }, (_, i) => `m${i}`);
    const before = new Map(monitors.map((m) => [m, ownerOf(m, ['a', 'b', 'c'])]));
    expect(new Set(before.values())).toEqual(new Set(['a', 'b', 'c']));
    for (const m of monitors) {
      const after = ownerOf(m, ['a', 'c']);
      expect(after).toBe(before.get(m) === 'b' ? after : before.get(m));
      expect(after).not.toBe('b');
    }
    expect(ownerOf('m1', [])).toBeUndefined();
  });
});
