import { BackgroundLoop, LoopOptions } from './background-loop';
import { ManualClock } from './clock';
import { sleep } from './sleep';

const HOUR = 3_600_000;

async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > 5000) throw new Error('condition not met within 5 s');
    await sleep(5);
  }
}

describe('BackgroundLoop', () => {
  const errors: unknown[] = [];
  const logger = { error: ({ err }: { err: unknown }) => void errors.push(err) };
  let loop: BackgroundLoop;
  let passes: number;
  const start = (options: Partial<LoopOptions> = {}) => {
    loop = new BackgroundLoop({ name: 'test loop', idleMs: HOUR, logger, pass: async () => void passes++, ...options });
    loop.start();
  };

  beforeEach(() => {
    passes = 0;
    errors.length = 0;
  });
  afterEach(() => loop.stop());

  it('runs a pass at start, then sleeps until news wakes it', async () => {
    start();
    await until(() => passes === 1);
    await sleep(50);
    expect(passes).toBe(1);
    loop.wake();
    await until(() => passes === 2);
  });

  it('runs the next pass when the pass says it is due, never later than idleMs', async () => {
    start({ pass: async () => (++passes < 3 ? 1 : passes < 5 ? HOUR : null), idleMs: 20 });
    // 1 ms, then an hour capped at idleMs, then null (idleMs): the loop keeps going at that pace.
    await until(() => passes === 6);
  });

  it('news during a pass is not lost: the next pass follows at once', async () => {
    let release = () => undefined as void;
    start({
      pass: async () => {
        passes++;
        if (passes === 1) await new Promise<void>((resolve) => (release = resolve));
      },
    });
    await until(() => passes === 1);
    loop.wake();
    release();
    await until(() => passes === 2);
  });

  it('logs a failed pass and retries it', async () => {
    start({ pass: async () => void (passes++ === 0 && (() => { throw new Error('store down'); })()), idleMs: 10 });
    await until(() => passes >= 2);
    expect(errors).toEqual([new Error('store down')]);
  });

  it('wakes when a clock moved by hand jumps, and stops at once mid-sleep', async () => {
    const clock = new ManualClock();
    start({ clock });
    await until(() => passes === 1);
    clock.advance(60_000);
    await until(() => passes === 2);
    await loop.stop();
    clock.advance(60_000);
    loop.wake();
    await sleep(20);
    expect(passes).toBe(2);
  });

  it('waits `firstMs` before the first pass unless woken', async () => {
    start({ firstMs: HOUR });
    await sleep(30);
    expect(passes).toBe(0);
    loop.wake(10);
    await until(() => passes === 1);
  });
});
