import { IncidentTemplateView } from '../../../incidents/src/incidents.api';
import { BLANK } from './incidents.controller';
import { declaredFrom, formErrors, readTemplateForm, templateBody } from './template-form';

const SERVICE = '01900000-0000-7000-8000-000000000051';

describe('the incident template form', () => {
  it('reads what was sent as typed, ticked services lower-cased, and gives the API its body', () => {
    const values = readTemplateForm({ name: ' Failover ', title: 'DB', severity: 'MAJOR', status: 'IDENTIFIED', body: 'Text', [`service-${SERVICE.toUpperCase()}`]: 'on', 'service-x': 'off', notify: 'on', csrf: 't' });
    expect(values).toEqual({ name: ' Failover ', title: 'DB', severity: 'MAJOR', status: 'IDENTIFIED', body: 'Text', services: [SERVICE], notify: true });
    expect(templateBody(values)).toEqual({ name: ' Failover ', title: 'DB', severity: 'MAJOR', status: 'IDENTIFIED', body: 'Text', services: [{ id: SERVICE }], notifySubscribers: true });
    expect(readTemplateForm(null)).toMatchObject({ name: '', services: [], notify: false });
  });

  it("puts the API's per-index service errors in the form's one place for services, keeping other fields' messages", () => {
    expect(formErrors({ name: 'name should not be empty', 'services[2].id': 'id names no service of this account', 'services[3].id': 'id duplicates services[0].id' })).toEqual({
      name: 'name should not be empty',
      services: 'Choose services of this account, each once (one may have been deleted: reload the page).',
    });
    expect(formErrors({ services: 'services must contain no more than 50 elements', notifySubscribers: 'must be a boolean' })).toEqual({ services: 'services must contain no more than 50 elements', notify: 'must be a boolean' });
  });

  it('fills the declare form from a template: its title is the incident name, its body the first update', () => {
    const template = { id: 't', name: 'Failover', title: 'Database degraded', severity: 'CRITICAL', status: 'MONITORING', body: 'Watching.', services: [{ id: SERVICE }], notifySubscribers: false } as IncidentTemplateView;
    expect(declaredFrom(template, BLANK)).toEqual({ ...BLANK, name: 'Database degraded', severity: 'CRITICAL', status: 'MONITORING', description: 'Watching.', services: [SERVICE], notify: false });
  });
});
