export const ALERT_TYPES = [
  'ALERT_FAILURE',
  'ALERT_RECOVERY',
  'ALERT_REMINDER',
  'ALERT_TEST',
  'INCIDENT_CREATED',
  'INCIDENT_UPDATED',
  'SUBSCRIPTION_CONFIRM',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/** What a check alert says; stored with its delivery so a retry sends the same words. */
export interface CheckAlert {
  alertType: 'ALERT_FAILURE' | 'ALERT_RECOVERY' | 'ALERT_REMINDER' | 'ALERT_TEST';
  checkId: string | null;
  checkName: string;
  tags: string[];
  /** The outage's first FAILING (the dedup key of PagerDuty and Opsgenie). */
  outageId: string | null;
  startedAt: string | null;
  /** When the triggering event happened. */
  at: string;
  downtimeSeconds: number | null;
}

export function alertTitle(alert: CheckAlert): string {
  switch (alert.alertType) {
    case 'ALERT_FAILURE':
      return `${alert.checkName} is failing`;
    case 'ALERT_REMINDER':
      return `${alert.checkName} is still failing`;
    case 'ALERT_RECOVERY':
      return `${alert.checkName} has recovered`;
    case 'ALERT_TEST':
      return 'Test notification from Vigil';
  }
}

/** "1 h 2 min 5 s": the downtime as a person reads it. */
export function humanDuration(seconds: number): string {
  const parts: string[] = [];
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  if (d) parts.push(`${d} d`);
  if (h) parts.push(`${h} h`);
  if (m) parts.push(`${m} min`);
  if (s || parts.length === 0) parts.push(`${s} s`);
  return parts.join(' ');
}

/** One line of text describing the alert, for chat channels and emails. */
export function alertSummary(alert: CheckAlert): string {
  switch (alert.alertType) {
    case 'ALERT_FAILURE':
      return `Heartbeat check "${alert.checkName}" missed its deadline at ${alert.startedAt ?? alert.at}.`;
    case 'ALERT_REMINDER':
      return `Heartbeat check "${alert.checkName}" has been failing since ${alert.startedAt ?? alert.at}.`;
    case 'ALERT_RECOVERY':
      return `Heartbeat check "${alert.checkName}" recovered at ${alert.at}${alert.downtimeSeconds !== null ? ` after ${humanDuration(alert.downtimeSeconds)} of downtime` : ''}.`;
    case 'ALERT_TEST':
      return 'This is a test notification: the alert channel works.';
  }
}
