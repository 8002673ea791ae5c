import { DynamicModule, Module } from '@nestjs/common';
import { PlatformModule } from '../../../libs/platform/src/platform.module';
import { PlatformOptions } from '../../../libs/platform/src/platform.options';
import { CONTEXT_MODULES } from '../../api/src/contexts';

/** The contexts without HTTP: commands and queries only, no daemon. */
@Module({})
export class CliModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    return { module: CliModule, imports: [PlatformModule.forRoot({ ...options, daemon: false }), ...CONTEXT_MODULES] };
  }
}
