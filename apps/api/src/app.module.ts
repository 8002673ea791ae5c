import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard } from '../../../libs/accounts/src/accounts.api';
import { IdempotencyGuard } from '../../../libs/http/src/idempotency';
import { PlatformModule } from '../../../libs/platform/src/platform.module';
import { PlatformOptions } from '../../../libs/platform/src/platform.options';
import { CONTEXT_MODULES } from './contexts';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { ShutdownLog } from './shutdown-log';

@Module({})
export class AppModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformModule.forRoot(options), ...CONTEXT_MODULES],
      controllers: [HealthController, MetricsController],
      // Guards run in this order: who is calling, then whether this POST was already answered.
      providers: [
        ShutdownLog,
        ApiKeyGuard,
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        IdempotencyGuard,
        { provide: APP_GUARD, useExisting: IdempotencyGuard },
      ],
    };
  }
}
