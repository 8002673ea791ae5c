import { ManualClock } from '../../../core/src/clock';
import { ConflictError } from '../../../core/src/errors';
import { CommandRunner } from '../../../event-store/src/command-runner';
import { InMemoryEventStore } from '../../../event-store/src/in-memory.event-store';
import { STALE_CLAIM_MS } from '../domain/address-claim.decider';
import { PageInput, statusPageDecider, statusPageStream } from '../domain/status-page.decider';
import { ACCOUNT, OTHER, pageInput } from '../testing/page-fixtures';
import { AddressClaimCommandHandler } from './address-claim.handler';

const page = (n: number) => `01900000-0000-7000-8000-0000000000a${n}`;
const actor = { accountId: ACCOUNT };
const url = (value: string) => ({ kind: 'url' as const, value });

/** The real claim streams on the in-memory event store, with page streams written as the page handlers write them. */
function setup() {
  const store = new InMemoryEventStore();
  const clock = new ManualClock('2026-03-01T00:00:00.000Z');
  const runner = new CommandRunner(store, clock, { applyAfterAppend: async () => undefined });
  const reservations = new AddressClaimCommandHandler(runner, clock);
  const createPage = (id: string, settings: Partial<PageInput>) =>
    runner.run(
      statusPageStream(id),
      statusPageDecider,
      {
        type: 'CreateStatusPage',
        id,
        accountId: ACCOUNT,
        page: pageInput({ name: 'P', url: 'p', ...settings }),
      },
      actor,
    );
  return { store, clock, reservations, createPage };
}

describe('address reservations', () => {
  it('of many concurrent claims of one url, exactly one wins; the others get a conflict', async () => {
    const { reservations } = setup();
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map((n) => reservations.claim(url('acme'), page(n), n % 2 ? ACCOUNT : OTHER, actor)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) expect(r.reason).toBeInstanceOf(ConflictError);
  });

  it('a claim whose page was never written is taken over once stale, not before', async () => {
    const { clock, reservations } = setup();
    await reservations.claim(url('acme'), page(1), ACCOUNT, actor);
    clock.advance(STALE_CLAIM_MS - 1);
    await expect(reservations.claim(url('acme'), page(2), OTHER, actor)).rejects.toThrow(ConflictError);
    clock.advance(1);
    await reservations.claim(url('acme'), page(2), OTHER, actor);
    // The first page, coming back late, finds it gone.
    await expect(reservations.claim(url('acme'), page(1), ACCOUNT, actor)).rejects.toThrow(ConflictError);
  });

  it('a claim its page shows is never taken over, however old', async () => {
    const { clock, reservations, createPage } = setup();
    await reservations.claim(url('acme'), page(1), ACCOUNT, actor);
    await createPage(page(1), { url: 'acme' });
    clock.advance(365 * 24 * 3600 * 1000);
    await expect(reservations.claim(url('acme'), page(2), OTHER, actor)).rejects.toThrow('url "acme" is already taken');
  });

  it('release frees a value only when its page no longer shows it', async () => {
    const { reservations, createPage } = setup();
    await reservations.claim(url('acme'), page(1), ACCOUNT, actor);
    await createPage(page(1), { url: 'acme' });
    await reservations.release(url('acme'), page(1), actor);
    await expect(reservations.claim(url('acme'), page(2), OTHER, actor)).rejects.toThrow(ConflictError);

    await reservations.claim(url('spare'), page(1), ACCOUNT, actor);
    await reservations.release(url('spare'), page(1), actor);
    await reservations.claim(url('spare'), page(2), OTHER, actor);
  });

  it('custom domains are one claim whatever their case', async () => {
    const { reservations } = setup();
    await reservations.claim({ kind: 'customDomain', value: 'Status.Acme.com' }, page(1), ACCOUNT, actor);
    await expect(reservations.claim({ kind: 'customDomain', value: 'status.acme.COM' }, page(2), OTHER, actor)).rejects.toThrow(
      'customDomain "status.acme.COM" is already taken',
    );
    await reservations.claim({ kind: 'customDomain', value: 'status.acme.com' }, page(1), ACCOUNT, actor);
  });
});
