/** The face of the audit context: its module and its query. */
export { AuditModule } from './audit.module';
export { AuditQuery } from './read/audit.queries';
export type { AuditAnswers, AuditEntryView, AuditFilter, AuditQuestion } from './read/audit.queries';
export { RESOURCE_TYPE_NAMES, HIDDEN_VALUE } from './read/audit-changes';
export type { AuditActor, FieldChange } from './read/audit-changes';
