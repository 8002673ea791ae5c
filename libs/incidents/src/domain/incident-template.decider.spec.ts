import { fold } from '../../../core/src/decider';
import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { specFor } from '../../../testing/src/given-when-then';
import { incidentTemplateDecider, IncidentTemplateEvent, incidentTemplateStream, TemplateContent } from './incident-template.decider';

const ID = '01900000-0000-7000-8000-000000000071';
const ACCOUNT = '01900000-0000-7000-8000-000000000001';
const OTHER = '01900000-0000-7000-8000-000000000002';
const SERVICE = '01900000-0000-7000-8000-000000000051';
const content: TemplateContent = {
  name: 'Database failover',
  title: 'Degraded database performance',
  severity: 'MAJOR',
  status: 'IDENTIFIED',
  body: 'We are failing over to the standby database.',
  serviceIds: [SERVICE],
  notifySubscribers: true,
};
const created: IncidentTemplateEvent = { type: 'IncidentTemplateCreated', data: { templateId: ID, accountId: ACCOUNT, ...content } };
const changedContent: TemplateContent = { ...content, title: 'Database failover in progress', serviceIds: [] };
const changed: IncidentTemplateEvent = { type: 'IncidentTemplateChanged', data: { templateId: ID, ...changedContent } };
const deleted: IncidentTemplateEvent = { type: 'IncidentTemplateDeleted', data: { templateId: ID } };
const spec = specFor(incidentTemplateDecider);

describe('incident template decider', () => {
  describe('CreateIncidentTemplate', () => {
    it('given nothing, then IncidentTemplateCreated with the whole content', () => {
      spec.given([]).when({ type: 'CreateIncidentTemplate', id: ID, accountId: ACCOUNT, template: content }).then([created]);
    });

    it('carries only the content fields, whatever else the command object holds', () => {
      const extra = { ...content, accountId: OTHER } as TemplateContent;
      spec.given([]).when({ type: 'CreateIncidentTemplate', id: ID, accountId: ACCOUNT, template: extra }).then([created]);
    });

    it('given an existing or a deleted template, then a conflict (ids are never reused)', () => {
      spec.given([created]).when({ type: 'CreateIncidentTemplate', id: ID, accountId: ACCOUNT, template: content }).thenThrows(ConflictError);
      spec.given([created, deleted]).when({ type: 'CreateIncidentTemplate', id: ID, accountId: ACCOUNT, template: content }).thenThrows(ConflictError);
    });
  });

  describe('ReplaceIncidentTemplate', () => {
    it('given a template, when its content changes, then IncidentTemplateChanged with the new content', () => {
      spec.given([created]).when({ type: 'ReplaceIncidentTemplate', id: ID, accountId: ACCOUNT, template: changedContent }).then([changed]);
    });

    it('given a template, when sent the content it has, then nothing', () => {
      spec.given([created, changed]).when({ type: 'ReplaceIncidentTemplate', id: ID, accountId: ACCOUNT, template: { ...changedContent } }).then([]);
    });

    it('given a template, when only the order of its services changes, then a change', () => {
      const two = { ...content, serviceIds: [SERVICE, OTHER] };
      const given: IncidentTemplateEvent = { type: 'IncidentTemplateChanged', data: { templateId: ID, ...two } };
      const swapped = { ...content, serviceIds: [OTHER, SERVICE] };
      spec.given([created, given]).when({ type: 'ReplaceIncidentTemplate', id: ID, accountId: ACCOUNT, template: swapped }).then([{ type: 'IncidentTemplateChanged', data: { templateId: ID, ...swapped } }]);
    });

    it('given nothing, a deleted template, or another account\'s, then not found', () => {
      spec.given([]).when({ type: 'ReplaceIncidentTemplate', id: ID, accountId: ACCOUNT, template: content }).thenThrows(NotFoundError, 'Incident template not found');
      spec.given([created, deleted]).when({ type: 'ReplaceIncidentTemplate', id: ID, accountId: ACCOUNT, template: content }).thenThrows(NotFoundError);
      spec.given([created]).when({ type: 'ReplaceIncidentTemplate', id: ID, accountId: OTHER, template: changedContent }).thenThrows(NotFoundError);
    });
  });

  describe('DeleteIncidentTemplate', () => {
    it('given a template, then IncidentTemplateDeleted', () => {
      spec.given([created, changed]).when({ type: 'DeleteIncidentTemplate', id: ID, accountId: ACCOUNT }).then([deleted]);
    });

    it('given a deleted template, nothing, or another account\'s, then not found', () => {
      spec.given([created, deleted]).when({ type: 'DeleteIncidentTemplate', id: ID, accountId: ACCOUNT }).thenThrows(NotFoundError);
      spec.given([]).when({ type: 'DeleteIncidentTemplate', id: ID, accountId: ACCOUNT }).thenThrows(NotFoundError);
      spec.given([created]).when({ type: 'DeleteIncidentTemplate', id: ID, accountId: OTHER }).thenThrows(NotFoundError);
    });
  });

  it('evolves through created, changed and deleted', () => {
    expect(incidentTemplateDecider.initialState()).toEqual({ status: 'absent', accountId: null, template: null });
    expect(fold(incidentTemplateDecider, [created])).toEqual({ status: 'active', accountId: ACCOUNT, template: content });
    expect(fold(incidentTemplateDecider, [created, changed])).toEqual({ status: 'active', accountId: ACCOUNT, template: changedContent });
    expect(fold(incidentTemplateDecider, [created, changed, deleted])).toEqual({ status: 'deleted', accountId: ACCOUNT, template: changedContent });
  });

  it('names its stream incidenttemplate-<id>, apart from the incident-<id> streams', () => {
    expect(incidentTemplateStream(ID)).toBe(`incidenttemplate-${ID}`);
    expect(incidentTemplateStream(ID).startsWith('incident-')).toBe(false);
  });
});
