import { ViolationDetail } from '../../../core/src/errors';

/** A check's `alertSettings` as alerting reads them (Checkly's shape); absent parts take Checkly's defaults. */
export interface AlertPolicy {
  escalationType: 'RUN_BASED' | 'TIME_BASED';
  /** RUN_BASED: consecutive FAILING events before the first alert. */
  failedRunThreshold: number;
  /** TIME_BASED: minutes failing before the first alert. */
  minutesFailingThreshold: number;
  reminders: { amount: number; intervalMinutes: number };
}

export const DEFAULT_POLICY: AlertPolicy = {
  escalationType: 'RUN_BASED',
  failedRunThreshold: 1,
  minutesFailingThreshold: 5,
  reminders: { amount: 0, intervalMinutes: 5 },
};

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const intIn = (v: unknown, min: number, max: number) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

/** Every violated rule of a check's `alertSettings` (unknown fields are kept and ignored). */
export function alertSettingsProblems(settings: unknown): ViolationDetail[] {
  if (settings === null || settings === undefined) return [];
  const out: ViolationDetail[] = [];
  if (!isObject(settings)) return [{ path: 'alertSettings', message: 'alertSettings must be an object' }];
  const { escalationType, reminders } = settings;
  if (escalationType !== undefined && escalationType !== 'RUN_BASED' && escalationType !== 'TIME_BASED') {
    out.push({ path: 'alertSettings.escalationType', message: 'escalationType must be RUN_BASED or TIME_BASED' });
  }
  for (const [group, field, max] of [['runBasedEscalation', 'failedRunThreshold', 5], ['timeBasedEscalation', 'minutesFailingThreshold', 1440]] as const) {
    const value = settings[group];
    if (value !== undefined && value !== null && (!isObject(value) || (value[field] !== undefined && !intIn(value[field], 1, max)))) {
      out.push({ path: `alertSettings.${group}.${field}`, message: `${field} must be an integer from 1 to ${max}` });
    }
  }
  if (reminders !== undefined && reminders !== null) {
    if (!isObject(reminders)) out.push({ path: 'alertSettings.reminders', message: 'reminders must be {amount, interval}' });
    else {
      if (reminders.amount !== undefined && !intIn(reminders.amount, 0, 5)) out.push({ path: 'alertSettings.reminders.amount', message: 'amount must be an integer from 0 to 5' });
      if (reminders.interval !== undefined && !intIn(reminders.interval, 1, 1440)) out.push({ path: 'alertSettings.reminders.interval', message: 'interval must be a whole number of minutes from 1 to 1440' });
    }
  }
  return out;
}

/** The policy of valid (already checked) settings. */
export function alertPolicy(settings: unknown): AlertPolicy {
  if (!isObject(settings)) return DEFAULT_POLICY;
  const run = isObject(settings.runBasedEscalation) ? settings.runBasedEscalation : {};
  const time = isObject(settings.timeBasedEscalation) ? settings.timeBasedEscalation : {};
  const reminders = isObject(settings.reminders) ? settings.reminders : {};
  return {
    escalationType: settings.escalationType === 'TIME_BASED' ? 'TIME_BASED' : 'RUN_BASED',
    failedRunThreshold: intIn(run.failedRunThreshold, 1, 5) ? (run.failedRunThreshold as number) : 1,
    minutesFailingThreshold: intIn(time.minutesFailingThreshold, 1, 1440) ? (time.minutesFailingThreshold as number) : 5,
    reminders: {
      amount: intIn(reminders.amount, 0, 5) ? (reminders.amount as number) : 0,
      intervalMinutes: intIn(reminders.interval, 1, 1440) ? (reminders.interval as number) : 5,
    },
  };
}

/** Whether an outage that lasted `downtimeMs` over `failedRuns` failing runs had alerted under these settings. */
export function outageAlerted(settings: unknown, downtimeMs: number, failedRuns: number): boolean {
  const policy = alertPolicy(settings);
  return policy.escalationType === 'TIME_BASED' ? downtimeMs >= policy.minutesFailingThreshold * 60_000 : failedRuns >= policy.failedRunThreshold;
}
