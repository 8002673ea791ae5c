import { LEASE_BYTES, takePage } from './lease-page';

/** A document that carries `size` characters of configuration, or none (null). */
const doc = (id: number, size: number | null) => ({ id, size });
const sizeOf = (d: { size: number | null }) => d.size;

describe('a lease page', () => {
  it('takes every document while their configurations fit', () => {
    const docs = [doc(1, 100), doc(2, null), doc(3, 200)];
    expect(takePage(docs, sizeOf, 300)).toEqual({ taken: docs, cut: false });
  });

  it('ends before the configuration that would pass the budget, keeping the ones without one before it', () => {
    const docs = [doc(1, 200), doc(2, null), doc(3, 200), doc(4, 50)];
    expect(takePage(docs, sizeOf, 300)).toEqual({ taken: docs.slice(0, 2), cut: true });
  });

  it('always carries the first configuration, however large, so a lease moves on', () => {
    const docs = [doc(1, null), doc(2, 1000), doc(3, 1)];
    expect(takePage(docs, sizeOf, 300)).toEqual({ taken: docs.slice(0, 2), cut: true });
    expect(takePage([doc(1, 1000)], sizeOf, 300)).toEqual({ taken: [doc(1, 1000)], cut: false });
  });

  it('bounds what 10,000 URL monitors (about 500 characters each) put in one answer by the default budget', () => {
    const docs = Array.from({ length: 10_000 }, (_, i) => doc(i, 500));
    const page = takePage(docs, sizeOf);
    expect(page.cut).toBe(true);
    expect(page.taken.length * 500).toBeLessThanOrEqual(LEASE_BYTES);
    expect((page.taken.length + 1) * 500).toBeGreaterThan(LEASE_BYTES);
  });

  it('takes nothing from nothing', () => {
    expect(takePage([], sizeOf)).toEqual({ taken: [], cut: false });
  });
});
