import { Inject, Module } from '@nestjs/common';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { PROJECTION_ENGINE } from '../../platform/src/tokens';
import { ServicesController } from './http/services.controller';
import { ServiceDirectory } from './read/service-directory';
import { ServiceLinks } from './read/service-links';
import { servicesProjection } from './read/services.projection';
import { CreateServiceHandler, DeleteServiceHandler, UpdateServiceHandler } from './write/service.commands';

@Module({
  controllers: [ServicesController],
  providers: [ServiceLinks, ServiceDirectory, CreateServiceHandler, UpdateServiceHandler, DeleteServiceHandler],
  exports: [ServiceLinks, ServiceDirectory],
})
export class StatusPagesModule {
  constructor(@Inject(PROJECTION_ENGINE) engine: ProjectionEngine) {
    engine.register(servicesProjection);
  }
}
