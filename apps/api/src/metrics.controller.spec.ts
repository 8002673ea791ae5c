import { UnauthorizedError } from '../../../libs/core/src/errors';
import { loadConfig } from '../../../libs/platform/src/config';
import { Metrics } from '../../../libs/platform/src/metrics';
import { MetricsController } from './metrics.controller';

const TOKEN = 'metrics-token-0123456789abcdef';
const reply = () => ({ header: () => reply() }) as never;

describe('metrics token check', () => {
  afterEach(() => jest.restoreAllMocks());

  function controller(token: string | null) {
    return new MetricsController(new Metrics({ processMetrics: false }), { ...loadConfig({}), metricsToken: token });
  }

  it('takes the configured token, refuses a missing, wrong or longer one', async () => {
    const scrape = controller(TOKEN);
    await expect(scrape.scrape(`Bearer ${TOKEN}`, reply())).resolves.toEqual(expect.any(String));
    await expect(scrape.scrape(`bearer   ${TOKEN} `, reply())).resolves.toEqual(expect.any(String));
    for (const header of [undefined, '', 'Bearer', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, `Bearer ${TOKEN} extra`]) {
      await expect(scrape.scrape(header, reply())).rejects.toBeInstanceOf(UnauthorizedError);
    }
  });

  it('scrapes without a token when none is configured', async () => {
    await expect(controller(null).scrape(undefined, reply())).resolves.toEqual(expect.any(String));
  });

  it('hashes the configured token once, at start: a scrape hashes only the token it was given', async () => {
    const scrape = controller(TOKEN);
    const hashes = jest.spyOn(require('node:crypto') as typeof import('node:crypto'), 'createHash');
    for (let i = 0; i < 5; i++) await scrape.scrape(`Bearer ${TOKEN}`, reply());
    expect(hashes).toHaveBeenCalledTimes(5);
  });
});
