import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../../../libs/core/src/errors';
import { Public } from '../../../libs/http/src/account-context';
import { VIGIL_CONFIG, VigilConfig } from '../../../libs/platform/src/config';
import { Metrics } from '../../../libs/platform/src/metrics';

/** Compared as SHA-256 digests (equal length), so neither the length nor the content leaks through timing. */
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Prometheus text format (contract §7). Behind `VIGIL_METRICS_TOKEN` as a bearer token when it is set. */
@ApiTags('operations')
@Controller()
export class MetricsController {
  /** The configured token's digest, made once: a scrape hashes only the token it brings. */
  private readonly expected: Buffer | null;

  constructor(
    private readonly metrics: Metrics,
    @Inject(VIGIL_CONFIG) config: VigilConfig,
  ) {
    this.expected = config.metricsToken === null ? null : digest(config.metricsToken);
  }

  @Get('metrics')
  @Public()
  @ApiOperation({ summary: 'Prometheus metrics (text exposition format); no account ids, keys or addresses in labels' })
  @ApiBearerAuth()
  @ApiOkResponse({ description: 'Prometheus text format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiUnauthorizedResponse({ description: 'VIGIL_METRICS_TOKEN is set and the bearer token is missing or wrong', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } })
  async scrape(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    if (this.expected !== null) {
      const match = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match || !timingSafeEqual(digest(match[1]), this.expected)) throw new UnauthorizedError('A valid metrics token is required');
    }
    const { contentType, body } = await this.metrics.scrape();
    void reply.header('content-type', contentType).header('cache-control', 'no-store');
    return body;
  }
}
