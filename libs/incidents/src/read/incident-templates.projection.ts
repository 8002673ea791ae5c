import { Projection } from '../../../core/src/projection';
import { contentOf, INCIDENT_TEMPLATE_EVENT_TYPES, IncidentTemplateEvent, TemplateContent } from '../domain/incident-template.decider';

/** One incident template as stored; its services are the ids it was last saved with (deleted ones are dropped on read). */
export interface IncidentTemplateDoc extends TemplateContent {
  id: string;
  accountId: string;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

export const incidentTemplatesProjection: Projection<IncidentTemplateDoc, IncidentTemplateEvent> = {
  name: 'incident_templates',
  version: 1,
  handles: INCIDENT_TEMPLATE_EVENT_TYPES,
  indexes: [{ field: 'accountId' }],
  sortField: 'created_at',
  ids: (event) => [event.data.templateId],
  evolve(doc, e) {
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'IncidentTemplateCreated':
        return { id: e.data.templateId, accountId: e.data.accountId, ...contentOf(e.data), created_at: at, updated_at: at };
      case 'IncidentTemplateChanged':
        return doc && { ...doc, ...contentOf(e.data), updated_at: at };
      case 'IncidentTemplateDeleted':
        return null;
      default:
        return doc;
    }
  },
};
