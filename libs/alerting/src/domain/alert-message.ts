import { MonitorFacts, monitorSummary, monitorTitle } from './monitor-alert-words';

/**
 * Why a check failed, as the FAILING said it: the job reported a failure (`/fail`, `/{1-255}`, with the
 * first lines of what it sent), a started run never finished, or no ping came by the deadline.
 */
export type AlertCause =
  | { kind: 'deadline' }
  | { kind: 'run'; startedAt: string }
  | { kind: 'signal'; exitCode: number | null; output: string | null; outputCut: boolean };

/** What a check alert says; stored with its delivery so a retry sends the same words. */
export interface CheckAlert {
  alertType: 'ALERT_FAILURE' | 'ALERT_RECOVERY' | 'ALERT_REMINDER' | 'ALERT_TEST' | 'ALERT_DEGRADED' | 'ALERT_SSL';
  checkId: string | null;
  checkName: string;
  tags: string[];
  /** The outage's first FAILING (the dedup key of PagerDuty and Opsgenie). */
  outageId: string | null;
  startedAt: string | null;
  /** When the triggering event happened. */
  at: string;
  downtimeSeconds: number | null;
  /** Why it failed (failures and reminders); absent on deliveries stored before causes were kept: a missed deadline. */
  cause?: AlertCause;
  /** Present on a monitor's alerts (ALERT_DEGRADED and ALERT_SSL are only theirs). */
  monitor?: MonitorFacts;
}

export type AlertType = CheckAlert['alertType'] | 'INCIDENT_CREATED' | 'INCIDENT_UPDATED' | 'SUBSCRIPTION_CONFIRM';

/** How much of a job's output an alert carries: its first lines, each and all bounded. */
export const OUTPUT_MAX_LINES = 10;
export const OUTPUT_MAX_LINE_CHARS = 200;
export const OUTPUT_MAX_CHARS = 1000;

/** The first lines of a job's output, without control characters, cut to the bounds above. */
export function outputExcerpt(body: string): { output: string | null; cut: boolean } {
  // eslint-disable-next-line no-control-regex
  const clean = body.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/g, '').replace(/\s+$/, '');
  if (clean.trim() === '') return { output: null, cut: false };
  const all = clean.split('\n');
  let cut = all.length > OUTPUT_MAX_LINES;
  const lines = all.slice(0, OUTPUT_MAX_LINES).map((line) => {
    if (line.length <= OUTPUT_MAX_LINE_CHARS) return line;
    cut = true;
    return `${line.slice(0, OUTPUT_MAX_LINE_CHARS - 1)}…`;
  });
  let output = lines.join('\n');
  if (output.length > OUTPUT_MAX_CHARS) [output, cut] = [`${output.slice(0, OUTPUT_MAX_CHARS - 1)}…`, true];
  return { output, cut };
}

/** What a HeartbeatFailed carries about its cause. */
export interface FailureFacts {
  signal?: true;
  exitCode?: number;
  body?: string;
  truncated?: boolean;
  runStartedAt?: string;
}

export function failureCause(facts: FailureFacts): AlertCause {
  if (facts.signal) {
    const excerpt = facts.body === undefined ? { output: null, cut: false } : outputExcerpt(facts.body);
    return { kind: 'signal', exitCode: facts.exitCode ?? null, output: excerpt.output, outputCut: excerpt.cut || !!facts.truncated };
  }
  if (facts.runStartedAt) return { kind: 'run', startedAt: facts.runStartedAt };
  return { kind: 'deadline' };
}

const causeOf = (alert: CheckAlert): AlertCause => alert.cause ?? { kind: 'deadline' };
const exitCodeOf = (cause: Extract<AlertCause, { kind: 'signal' }>) => (cause.exitCode === null ? '' : ` (exit code ${cause.exitCode})`);

const TIME_FORMAT = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });

/** "1 Jul 2026, 12:00:30 UTC": a moment as on-call reads it. */
export function humanTime(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : `${TIME_FORMAT.format(new Date(ms))} UTC`;
}

export function alertTitle(alert: CheckAlert): string {
  const monitorWords = alert.monitor ? monitorTitle(alert) : null;
  if (monitorWords !== null) return monitorWords;
  const cause = causeOf(alert);
  switch (alert.alertType) {
    case 'ALERT_FAILURE':
      if (cause.kind === 'signal') return `${alert.checkName} reported a failure${exitCodeOf(cause)}`;
      if (cause.kind === 'run') return `${alert.checkName} started but did not finish`;
      return `${alert.checkName} missed its deadline`;
    case 'ALERT_REMINDER':
      return `${alert.checkName} is still failing`;
    case 'ALERT_RECOVERY':
      return `${alert.checkName} has recovered`;
    case 'ALERT_TEST':
      return 'Test notification from Vigil';
    default:
      return `${alert.checkName}: ${alert.alertType}`;
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

/** What happened, in words: "reported a failure (exit code 1) at …", "did not ping by its deadline (…)". */
function causeWords(cause: AlertCause, at: string): string {
  switch (cause.kind) {
    case 'signal':
      return `reported a failure${exitCodeOf(cause)} at ${humanTime(at)}`;
    case 'run':
      return `started a run at ${humanTime(cause.startedAt)} that did not finish by ${humanTime(at)}`;
    case 'deadline':
      return `missed its deadline: no ping by ${humanTime(at)}`;
  }
}

/** One line of text describing the alert, for chat channels and emails. */
export function alertSummary(alert: CheckAlert): string {
  const monitorWords = alert.monitor ? monitorSummary(alert, alert.monitor) : null;
  if (monitorWords !== null) return monitorWords;
  const name = `Heartbeat check "${alert.checkName}"`;
  switch (alert.alertType) {
    case 'ALERT_FAILURE':
      return `${name} ${causeWords(causeOf(alert), alert.startedAt ?? alert.at)}.`;
    case 'ALERT_REMINDER':
      return `${name} has been failing since ${humanTime(alert.startedAt ?? alert.at)}; it first ${causeWords(causeOf(alert), alert.startedAt ?? alert.at)}.`;
    case 'ALERT_RECOVERY': {
      const downtime = alert.downtimeSeconds !== null ? ` after ${humanDuration(alert.downtimeSeconds)} of downtime` : '';
      const since = alert.startedAt ? ` (failing since ${humanTime(alert.startedAt)})` : '';
      return `${name} recovered at ${humanTime(alert.at)}${downtime}${since}.`;
    }
    case 'ALERT_TEST':
      return 'This is a test notification: the alert channel works.';
    default:
      return `${name}: ${alert.alertType}.`;
  }
}

/** The first lines of the job's output the alert carries, with a note when cut; null when there are none. */
export function alertOutput(alert: CheckAlert): string | null {
  const cause = causeOf(alert);
  if (alert.alertType === 'ALERT_RECOVERY' || cause.kind !== 'signal' || cause.output === null) return null;
  return cause.outputCut ? `${cause.output}\n[…]` : cause.output;
}

/** The summary and the output, as plain text (JSON bodies, PagerDuty, Opsgenie, ntfy, Telegram). */
export function alertText(alert: CheckAlert): string {
  const output = alertOutput(alert);
  return output === null ? alertSummary(alert) : `${alertSummary(alert)}\n\nOutput (first lines):\n${output}`;
}

/** Slack mrkdwn: &, < and > are its control characters; the output sits in a code block it cannot close. */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function slackText(alert: CheckAlert): string {
  const output = alertOutput(alert);
  const head = `*${slackEscape(alertTitle(alert))}*\n${slackEscape(alertSummary(alert))}`;
  return output === null ? head : `${head}\n\`\`\`\n${slackEscape(output).replace(/`/g, 'ˋ')}\n\`\`\``;
}

/**
 * Where an alert's link leads: a page a person can open, never the JSON API (a browser gets 401 there).
 * The check's page in the operator console (after sign-in, that page); without a check, the console's checks.
 */
export function checkLink(publicUrl: string, checkId: string | null): string {
  return checkId ? `${publicUrl}/console/checks/${encodeURIComponent(checkId)}` : `${publicUrl}/console/checks`;
}
