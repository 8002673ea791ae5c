import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '../../../libs/platform/src/platform.module';
import { PlatformOptions } from '../../../libs/platform/src/platform.options';
import { CONTEXT_MODULES } from './contexts';
import { HealthController } from './health.controller';

@Module({})
export class AppModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformModule.forRoot(options), ...CONTEXT_MODULES],
      controllers: [HealthController],
    };
  }
}
