import { ConflictError, NotFoundError, ValidationError } from '../../../core/src/errors';
import { specFor } from '../../../testing/src/given-when-then';
import { CheckConfig, HeartbeatCheckEvent, heartbeatCheckDecider } from './heartbeat-check.decider';

const spec = specFor(heartbeatCheckDecider);
const ID = '01900000-0000-7000-8000-000000000001';
const ACCOUNT = 'acc-1';

const config = (over: Partial<CheckConfig['heartbeat']> = {}, rest: Partial<CheckConfig> = {}): CheckConfig => ({
  name: 'Backup',
  activated: true,
  muted: false,
  tags: [],
  description: null,
  heartbeat: { period: 5, periodUnit: 'minutes', grace: 1, graceUnit: 'minutes', pingToken: 'tok', ...over },
  triggerIncident: null,
  alertSettings: null,
  alertChannelSubscriptions: [],
  ...rest,
});

const created: HeartbeatCheckEvent = { type: 'HeartbeatCheckCreated', data: { id: ID, accountId: ACCOUNT, config: config() } };

describe('HeartbeatCheck decider', () => {
  describe('create', () => {
    it('given nothing, when created, then HeartbeatCheckCreated', () => {
      spec.given([]).when({ type: 'CreateHeartbeatCheck', id: ID, accountId: ACCOUNT, config: config() }).then([created]);
    });

    it('given an existing check, when created again, then 409', () => {
      spec.given([created]).when({ type: 'CreateHeartbeatCheck', id: ID, accountId: ACCOUNT, config: config() }).thenThrows(ConflictError);
    });

    it.each([
      ['29 seconds', { period: 29, periodUnit: 'seconds' as const }],
      ['366 days', { period: 366, periodUnit: 'days' as const }],
      ['grace of 366 days', { grace: 366, graceUnit: 'days' as const }],
    ])('refuses a period or grace out of bounds: %s', (_label, heartbeat) => {
      spec.given([]).when({ type: 'CreateHeartbeatCheck', id: ID, accountId: ACCOUNT, config: config(heartbeat) }).thenThrows(ValidationError);
    });

    it.each([
      ['30 seconds', { period: 30, periodUnit: 'seconds' as const }],
      ['365 days with 365 days of grace', { period: 365, periodUnit: 'days' as const, grace: 365, graceUnit: 'days' as const }],
      ['no grace', { grace: 0 }],
    ])('accepts the bounds themselves: %s', (_label, heartbeat) => {
      const events = heartbeatCheckDecider.decide({ type: 'CreateHeartbeatCheck', id: ID, accountId: ACCOUNT, config: config(heartbeat) }, heartbeatCheckDecider.initialState());
      expect(events).toHaveLength(1);
    });

    it('names both fields when period and grace are both wrong', () => {
      try {
        heartbeatCheckDecider.decide(
          { type: 'CreateHeartbeatCheck', id: ID, accountId: ACCOUNT, config: config({ period: 1, periodUnit: 'seconds', grace: 400, graceUnit: 'days' }) },
          heartbeatCheckDecider.initialState(),
        );
        throw new Error('no error');
      } catch (error) {
        expect((error as ValidationError).details.map((d) => d.path)).toEqual(['heartbeat.period', 'heartbeat.grace']);
      }
    });
  });

  describe('update', () => {
    it('given a check, when its config changes, then HeartbeatCheckUpdated with the whole config', () => {
      const next = config({ period: 10 });
      spec.given([created]).when({ type: 'UpdateHeartbeatCheck', id: ID, accountId: ACCOUNT, config: next }).then([
        { type: 'HeartbeatCheckUpdated', data: { id: ID, config: next } },
      ]);
    });

    it('given a check, when the same config is sent, then nothing', () => {
      spec.given([created]).when({ type: 'UpdateHeartbeatCheck', id: ID, accountId: ACCOUNT, config: config() }).then([]);
    });

    it("given another account's check, when updated, then 404", () => {
      spec.given([created]).when({ type: 'UpdateHeartbeatCheck', id: ID, accountId: 'other', config: config() }).thenThrows(NotFoundError);
    });

    it('given a deleted check, when updated, then 404', () => {
      spec
        .given([created, { type: 'HeartbeatCheckDeleted', data: { id: ID } }])
        .when({ type: 'UpdateHeartbeatCheck', id: ID, accountId: ACCOUNT, config: config() })
        .thenThrows(NotFoundError);
    });
  });

  describe('delete', () => {
    it('given a check, when deleted, then HeartbeatCheckDeleted', () => {
      spec.given([created]).when({ type: 'DeleteHeartbeatCheck', id: ID, accountId: ACCOUNT }).then([{ type: 'HeartbeatCheckDeleted', data: { id: ID } }]);
    });

    it('given nothing, when deleted, then 404', () => {
      spec.given([]).when({ type: 'DeleteHeartbeatCheck', id: ID, accountId: ACCOUNT }).thenThrows(NotFoundError);
    });
  });

  describe('schedule and slug', () => {
    const scheduled = (schedule: unknown, timezone: unknown = 'Europe/Berlin', rest: Partial<CheckConfig> = {}) =>
      config({ period: null, periodUnit: null, schedule: schedule as string, timezone: timezone as string }, rest);
    const pathsOf = (cfg: CheckConfig) => {
      try {
        heartbeatCheckDecider.decide({ type: 'CreateHeartbeatCheck', id: ID, accountId: ACCOUNT, config: cfg }, heartbeatCheckDecider.initialState());
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).details.map((d) => d.path);
      }
    };

    it('accepts a schedule with a zone instead of a period, and a slug', () => {
      expect(pathsOf(scheduled('0 9 * * 1-5', 'Europe/Berlin', { slug: 'nightly_backup-2' }))).toEqual([]);
      expect(pathsOf(scheduled('@daily', null))).toEqual([]);
    });

    it('refuses both a period and a schedule, and neither', () => {
      expect(pathsOf(config({ schedule: '@daily' }))).toEqual(['heartbeat.schedule']);
      expect(pathsOf(config({ period: null, periodUnit: null }))).toEqual(['heartbeat.period']);
    });

    it('names the field of a bad expression or zone', () => {
      expect(pathsOf(scheduled('61 * * * *'))).toEqual(['heartbeat.schedule']);
      expect(pathsOf(scheduled('@daily', 'Mars/Olympus'))).toEqual(['heartbeat.timezone']);
      expect(pathsOf(config({ timezone: 'Europe/Berlin' }))).toEqual(['heartbeat.timezone']);
      expect(pathsOf(config({ periodUnit: null }))).toEqual(['heartbeat.periodUnit']);
    });

    it('a check stored before schedules and slugs equals the same config sent with them as null', () => {
      const sent = config({ schedule: null, timezone: null }, { slug: null });
      spec.given([created]).when({ type: 'UpdateHeartbeatCheck', id: ID, accountId: ACCOUNT, config: sent }).then([]);
      spec.given([created]).when({ type: 'UpdateHeartbeatCheck', id: ID, accountId: ACCOUNT, config: { ...sent, slug: 'new' } }).then([
        { type: 'HeartbeatCheckUpdated', data: { id: ID, config: { ...sent, slug: 'new' } } },
      ]);
    });

    it.each(['a/b', 'x'.repeat(101), 'Upper', '', 'sp ace'])('refuses the slug %j', (slug) => {
      expect(pathsOf(config({}, { slug }))).toEqual(['slug']);
    });
  });

  describe('SetAlertChannelSubscription (the channel side of a subscription)', () => {
    const CHANNEL = '01900000-0000-7000-8000-0000000000c1';
    const set = (activated: boolean | null, accountId = ACCOUNT) => ({ type: 'SetAlertChannelSubscription' as const, id: ID, accountId, alertChannelId: CHANNEL, activated });
    const withSubs = (subs: CheckConfig['alertChannelSubscriptions']) => config({}, { alertChannelSubscriptions: subs });
    it('given a check, then the subscription is added to its configuration', () => {
      spec.given([created]).when(set(true)).then([{ type: 'HeartbeatCheckUpdated', data: { id: ID, config: withSubs([{ alertChannelId: CHANNEL, activated: true }]) } }]);
    });
    it('given the same subscription, then nothing; null removes it', () => {
      const subscribed: HeartbeatCheckEvent = { type: 'HeartbeatCheckUpdated', data: { id: ID, config: withSubs([{ alertChannelId: CHANNEL, activated: true }]) } };
      spec.given([created, subscribed]).when(set(true)).then([]);
      spec.given([created, subscribed]).when(set(null)).then([{ type: 'HeartbeatCheckUpdated', data: { id: ID, config: withSubs([]) } }]);
    });
    it('given another account, then 404', () => {
      spec.given([created]).when(set(true, 'acc-2')).thenThrows(NotFoundError);
    });
  });
});
