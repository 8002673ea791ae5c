import { Inject, Module } from '@nestjs/common';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { PROJECTION_ENGINE } from '../../platform/src/tokens';
import { auditEntriesProjection, auditResourcesProjection } from './read/audit.projections';
import { AuditQueryHandler } from './read/audit.queries';

/**
 * The audit log: every change to an account's resources, read from the event log by two projections (the
 * entries, and per resource the snapshot their diffs need). Read-only: it has no commands.
 */
@Module({ providers: [AuditQueryHandler] })
export class AuditModule {
  constructor(@Inject(PROJECTION_ENGINE) engine: ProjectionEngine) {
    engine.register(auditEntriesProjection);
    engine.register(auditResourcesProjection);
  }
}
