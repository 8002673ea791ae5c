import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { Severity, UpdateStatus } from './incident-timeline';

/** What a template holds: its own name, and what an incident declared from it starts with. */
export interface TemplateContent {
  /** The template's own name, as the console lists it. */
  name: string;
  /** The incident's name. */
  title: string;
  severity: Severity;
  /** Status of the first update. */
  status: UpdateStatus;
  /** Text of the first update (Markdown). */
  body: string;
  serviceIds: string[];
  notifySubscribers: boolean;
}

export type IncidentTemplateEvent =
  | { type: 'IncidentTemplateCreated'; data: { templateId: string; accountId: string } & TemplateContent }
  | { type: 'IncidentTemplateChanged'; data: { templateId: string } & TemplateContent }
  | { type: 'IncidentTemplateDeleted'; data: { templateId: string } };

export const INCIDENT_TEMPLATE_EVENT_TYPES: readonly IncidentTemplateEvent['type'][] = ['IncidentTemplateCreated', 'IncidentTemplateChanged', 'IncidentTemplateDeleted'];

export type IncidentTemplateCommand =
  | { type: 'CreateIncidentTemplate'; id: string; accountId: string; template: TemplateContent }
  | { type: 'ReplaceIncidentTemplate'; id: string; accountId: string; template: TemplateContent }
  | { type: 'DeleteIncidentTemplate'; id: string; accountId: string };

export interface IncidentTemplateState {
  status: 'absent' | 'active' | 'deleted';
  accountId: string | null;
  template: TemplateContent | null;
}

function requireOwned(state: IncidentTemplateState, accountId: string): TemplateContent {
  // Another account's template, or a deleted one, is indistinguishable from a missing one.
  if (state.status !== 'active' || state.accountId !== accountId || !state.template) throw new NotFoundError('Incident template not found');
  return state.template;
}

/** Only the content's own fields, in one order: what the events and the read model carry. */
export const contentOf = ({ name, title, severity, status, body, serviceIds, notifySubscribers }: TemplateContent): TemplateContent => ({ name, title, severity, status, body, serviceIds, notifySubscribers });

const sameContent = (a: TemplateContent, b: TemplateContent) => JSON.stringify(contentOf(a)) === JSON.stringify(contentOf(b));

export const incidentTemplateDecider: Decider<IncidentTemplateState, IncidentTemplateCommand, IncidentTemplateEvent> = {
  initialState: () => ({ status: 'absent', accountId: null, template: null }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateIncidentTemplate':
        if (state.status !== 'absent') throw new ConflictError('Incident template already exists');
        return [{ type: 'IncidentTemplateCreated', data: { templateId: command.id, accountId: command.accountId, ...contentOf(command.template) } }];
      case 'ReplaceIncidentTemplate': {
        const current = requireOwned(state, command.accountId);
        if (sameContent(current, command.template)) return [];
        return [{ type: 'IncidentTemplateChanged', data: { templateId: command.id, ...contentOf(command.template) } }];
      }
      case 'DeleteIncidentTemplate':
        requireOwned(state, command.accountId);
        return [{ type: 'IncidentTemplateDeleted', data: { templateId: command.id } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'IncidentTemplateCreated':
        return { status: 'active', accountId: event.data.accountId, template: contentOf(event.data) };
      case 'IncidentTemplateChanged':
        return { ...state, template: contentOf(event.data) };
      case 'IncidentTemplateDeleted':
        return { ...state, status: 'deleted' };
      default:
        return state;
    }
  },
};

export const incidentTemplateStream = (id: string) => `incidenttemplate-${id}`;
