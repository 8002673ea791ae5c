import type { CheckAlert } from './alert-message';
import { humanDuration, humanTime } from './alert-message';

/** What a monitor's alert says beyond a heartbeat's: its type, where it failed, why, and the certificate's days left. */
export interface MonitorFacts {
  checkType: string;
  /** The failing run's error (failures, reminders), null otherwise. */
  error: string | null;
  /** The locations whose runs failed the round. */
  locations: string[];
  responseTime: number | null;
  sslDaysRemaining: number | null;
}

const TYPE_WORDS: Record<string, string> = { URL: 'URL monitor', API: 'API monitor', TCP: 'TCP monitor', DNS: 'DNS monitor', SSL: 'SSL monitor' };

const where = (facts: MonitorFacts) => (facts.locations.length > 0 ? ` from ${facts.locations.join(', ')}` : '');
const why = (facts: MonitorFacts) => (facts.error ? `: ${facts.error}` : '');

/** A monitor's own title, or null where it reads as a heartbeat's (reminder, recovery, test). */
export function monitorTitle(alert: CheckAlert): string | null {
  switch (alert.alertType) {
    case 'ALERT_FAILURE':
      return `${alert.checkName} is failing`;
    case 'ALERT_DEGRADED':
      return `${alert.checkName} is degraded`;
    case 'ALERT_SSL':
      return `The certificate of ${alert.checkName} expires in ${alert.monitor?.sslDaysRemaining ?? '?'} days`;
    default:
      return null;
  }
}

/** One line saying what happened to the monitor, for chat channels and emails; null for a test (as a heartbeat's). */
export function monitorSummary(alert: CheckAlert, facts: MonitorFacts): string | null {
  const name = `${TYPE_WORDS[facts.checkType] ?? 'Monitor'} "${alert.checkName}"`;
  const since = humanTime(alert.startedAt ?? alert.at);
  switch (alert.alertType) {
    case 'ALERT_FAILURE':
      return `${name} failed${where(facts)} at ${since}${why(facts)}.`;
    case 'ALERT_REMINDER':
      return `${name} has been failing since ${since}${why(facts)}.`;
    case 'ALERT_DEGRADED':
      return `${name} has been slower than its degraded response time since ${since}${facts.responseTime === null ? '' : ` (${facts.responseTime} ms)`}.`;
    case 'ALERT_SSL':
      return `${name}: the certificate expires in ${facts.sslDaysRemaining ?? '?'} days (seen at ${since}).`;
    case 'ALERT_RECOVERY': {
      const downtime = alert.downtimeSeconds !== null ? ` after ${humanDuration(alert.downtimeSeconds)}` : '';
      return `${name} recovered at ${humanTime(alert.at)}${downtime} (since ${since}).`;
    }
    default:
      return null;
  }
}
