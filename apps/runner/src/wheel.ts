/**
 * Things due at given times (local clock, ms) on one timer rather than one each: every time falls in a slot of
 * `slotMs`, rounded up so nothing is due early, and the timer wakes once per slot for all that fall in it.
 * A slot of a few milliseconds starts rounds that late at most and lets the probes due together share wake-ups.
 */
export class Wheel<T> {
  private readonly slots = new Map<number, T[]>();
  /** The slots' numbers, a min-heap. */
  private readonly heap: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  private armedFor = Infinity;

  constructor(
    private readonly slotMs: number,
    private readonly due: (item: T) => void,
  ) {}

  add(atMs: number, item: T): void {
    const slot = Math.ceil(atMs / this.slotMs);
    const list = this.slots.get(slot);
    if (list) return void list.push(item);
    this.slots.set(slot, [item]);
    push(this.heap, slot);
    if (slot < this.armedFor) this.arm();
  }

  clear(): void {
    this.slots.clear();
    this.heap.length = 0;
    this.disarm();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = Infinity;
  }

  private arm(): void {
    this.disarm();
    if (this.heap.length === 0) return;
    this.armedFor = this.heap[0];
    this.timer = setTimeout(() => this.tick(), Math.max(0, this.armedFor * this.slotMs - Date.now()));
  }

  private tick(): void {
    this.timer = null;
    this.armedFor = Infinity;
    const now = Date.now();
    // A callback may add to a slot already due: it is taken in this same pass.
    while (this.heap.length > 0 && this.heap[0] * this.slotMs <= now) {
      const slot = pop(this.heap);
      const list = this.slots.get(slot)!;
      this.slots.delete(slot);
      for (const item of list) this.due(item);
    }
    this.arm();
  }
}

function push(heap: number[], value: number): void {
  let i = heap.push(value) - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent] <= value) break;
    heap[i] = heap[parent];
    i = parent;
  }
  heap[i] = value;
}

function pop(heap: number[]): number {
  const top = heap[0];
  const last = heap.pop()!;
  if (heap.length === 0) return top;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= heap.length) break;
    const child = left + 1 < heap.length && heap[left + 1] < heap[left] ? left + 1 : left;
    if (heap[child] >= last) break;
    heap[i] = heap[child];
    i = child;
  }
  heap[i] = last;
  return top;
}
