import { Wheel } from './wheel';

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the runner’s wheel', () => {
  it('calls each item once, never before its time, slot by slot in time order, also items added while due', async () => {
    const seen: { item: string; at: number; calledAt: number }[] = [];
    const start = Date.now();
    const times: Record<string, number> = { c: start + 120, a: start + 30, b: start + 31, d: start + 60 };
    const wheel = new Wheel<string>(10, (item) => {
      seen.push({ item, at: times[item], calledAt: Date.now() });
      // Added while the wheel is calling: due already, so taken in the same pass or the next.
      if (item === 'd') wheel.add(Date.now() - 5, 'late');
    });
    times.late = 0;
    for (const [item, at] of Object.entries(times)) if (item !== 'late') wheel.add(at, item);
    await settle(250);
    expect(seen.map((s) => s.item)).toEqual(['a', 'b', 'd', 'late', 'c']);
    for (const s of seen) expect(s.calledAt).toBeGreaterThanOrEqual(s.at);
  });

  it('calls nothing once cleared, and works again after', async () => {
    const seen: string[] = [];
    const wheel = new Wheel<string>(5, (item) => seen.push(item));
    wheel.add(Date.now() + 20, 'dropped');
    wheel.clear();
    wheel.add(Date.now() + 30, 'kept');
    await settle(120);
    expect(seen).toEqual(['kept']);
  });

  it('keeps many items in time order however they were added', async () => {
    const seen: number[] = [];
    const wheel = new Wheel<number>(1, (n) => seen.push(n));
    const base = Date.now() + 20;
    const offsets = Array.from({ length: 200 }, (_, i) => (i * 37) % 100);
    for (const o of offsets) wheel.add(base + o, o);
    await settle(250);
    expect(seen).toEqual([...offsets].sort((x, y) => x - y));
  });
});
