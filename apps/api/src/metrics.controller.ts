import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../../../libs/core/src/errors';
import { Public } from '../../../libs/http/src/account-context';
import { VIGIL_CONFIG, VigilConfig } from '../../../libs/platform/src/config';
import { Metrics } from '../../../libs/platform/src/metrics';

/** Compared as SHA-256 digests, so neither the length nor the content leaks through timing. */
function sameToken(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Prometheus text format (contract §7). Behind `VIGIL_METRICS_TOKEN` as a bearer token when it is set. */
@ApiExcludeController()
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  @Get('metrics')
  @Public()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const expected = this.config.metricsToken;
    if (expected !== null) {
      const match = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match || !sameToken(match[1], expected)) throw new UnauthorizedError('A valid metrics token is required');
    }
    const { contentType, body } = await this.metrics.scrape();
    void reply.header('content-type', contentType).header('cache-control', 'no-store');
    return body;
  }
}
