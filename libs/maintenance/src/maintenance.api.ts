/** The maintenance context as other contexts and apps may use it. */
export { MaintenanceModule } from './maintenance.module';
export { RunMaintenanceWindowCommand } from './write/maintenance-window.handler';
export type { MaintenanceWindowCommand, MaintenanceWindowEvent, WindowConfig } from './domain/maintenance-window.decider';
export { MaintenanceQuery } from './read/maintenance.queries';
export type { MaintenanceAnswers, MaintenanceQuestion } from './read/maintenance.queries';
/** What the watchdog, the alerts and the public pages ask: which windows are active at an instant, which occur in a range. */
export { MaintenanceDirectory } from './read/maintenance-directory';
export type { MaintenanceWindowView, WindowFilter, WindowOccurrence } from './read/maintenance-directory';
/** The API's body rules and its mapping to a window's config: the console's form validates with the same. */
export { MaintenanceWindowBodyDto } from './http/maintenance-window.dto';
export { toConfig } from './http/window-config';
export { REPEAT_UNITS } from './domain/maintenance-window.decider';
