import { CheckView } from '../../../heartbeats/src/heartbeats.api';
import { BLANK_CHECK, checkFieldErrors, checkInput, readCheckForm } from './check-form';

const stored = {
  name: 'old',
  activated: true,
  muted: true,
  tags: ['a'],
  description: null,
  slug: 'old-slug',
  heartbeat: { period: 5, periodUnit: 'minutes', grace: 1, graceUnit: 'minutes', pingToken: 'tok', schedule: null, timezone: null },
  triggerIncident: null,
  alertSettings: { escalationType: 'RUN_BASED' },
  alertChannelSubscriptions: [{ alertChannelId: 'off', activated: false }, { alertChannelId: 'on', activated: true }],
} as unknown as CheckView;

describe('the check form', () => {
  it('keeps on edit what the form does not show, and a channel deactivated and left unticked', () => {
    const values = readCheckForm({ name: ' new ', tags: 'b, b, c', timing: 'schedule', schedule: '0 3 * * *', timezone: '', grace: '2', graceUnit: 'hours', 'channel-X': 'on' });
    const { input, errors } = checkInput(values, stored);
    expect(errors).toEqual({});
    expect(input).toMatchObject({ name: 'new', muted: true, slug: 'old-slug', tags: ['b', 'c'], alertSettings: { escalationType: 'RUN_BASED' } });
    expect(input.heartbeat).toEqual({ period: null, periodUnit: null, schedule: '0 3 * * *', timezone: 'UTC', grace: 2, graceUnit: 'hours', pingToken: 'tok' });
    expect(input.alertChannelSubscriptions).toEqual([{ alertChannelId: 'off', activated: false }, { alertChannelId: 'x', activated: true }]);
  });

  it('checks names, numbers and units as the API body is checked', () => {
    const { errors } = checkInput({ ...BLANK_CHECK, name: '', period: '0', grace: '1.5', tags: 'x'.repeat(101) }, null);
    expect(Object.keys(errors).sort()).toEqual(['grace', 'name', 'period', 'tags']);
    expect(checkInput({ ...BLANK_CHECK, name: 'n', timing: 'schedule', schedule: '' }, null).errors).toEqual({ schedule: 'Write a cron schedule, for example 0 3 * * *.' });
  });

  it("puts the decider's problems beside their fields", () => {
    expect(checkFieldErrors([{ path: 'heartbeat.periodUnit', message: 'periodUnit is required' }, { path: 'heartbeat.timezone', message: 'bad zone' }, { path: 'alertChannelSubscriptions[0].alertChannelId', message: 'must name a channel' }])).toEqual({
      period: 'PeriodUnit is required.',
      schedule: 'Bad zone.',
      channels: 'Must name a channel.',
    });
  });
});
