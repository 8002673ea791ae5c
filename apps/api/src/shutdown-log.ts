import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { LOGGER, VigilLogger } from '../../../libs/platform/src/logger';

/** Says that the API stopped, and on which signal: an operator sees a clean stop from a crash. */
@Injectable()
export class ShutdownLog implements OnApplicationShutdown {
  constructor(@Inject(LOGGER) private readonly logger: VigilLogger) {}

  onApplicationShutdown(signal?: string): void {
    this.logger.info({ signal: signal ?? null }, 'Vigil API stopped');
  }
}
