/** The incidents context as other contexts and apps may use it. */
export { IncidentsModule } from './incidents.module';
export { RunIncidentCommand } from './write/incident.handler';
export type { IncidentCommand, IncidentEvent, IncidentState, NewUpdate, PostedUpdateData } from './domain/incident.decider';
export { INCIDENT_EVENT_TYPES } from './domain/incident.decider';
export { compareTimeline, SEVERITIES, UPDATE_STATUSES } from './domain/incident-timeline';
export type { Severity, UpdateStatus } from './domain/incident-timeline';
export { IncidentsQuery } from './read/incidents.queries';
export type { IncidentHistory, IncidentHistoryEntry, IncidentsAnswers, IncidentsQuestion } from './read/incidents.queries';
export { incidentDate, IncidentDirectory } from './read/incident-directory';
export type { IncidentListFilter, IncidentUpdateView, IncidentView } from './read/incident-directory';
export { RunIncidentTemplateCommand } from './write/incident-template.handler';
export type { IncidentTemplateCommand, IncidentTemplateEvent, TemplateContent } from './domain/incident-template.decider';
export type { IncidentTemplateView } from './read/incident-template-directory';
/** The API's body rules for a template and its mapping to a template's content: the console's form validates with the same. */
export { IncidentTemplateBodyDto, toTemplateContent } from './http/incident-template.dto';
