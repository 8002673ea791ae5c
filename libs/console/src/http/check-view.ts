import { CheckView, HeartbeatEventView } from '../../../heartbeats/src/heartbeats.api';

/** A crontab line that runs the job and pings with its exit code (so a failing job is reported at once). */
export function cronLine(check: CheckView): string {
  const schedule = check.heartbeat.schedule ?? periodCron(check.heartbeat.period, check.heartbeat.periodUnit);
  return `${schedule} /path/to/job.sh; curl -fsS -m 10 --retry 3 -o /dev/null ${check.heartbeat.pingUrl}/$?`;
}

/** A cron schedule for a period check when one fits; otherwise the five fields to fill in. */
function periodCron(period: number | null | undefined, unit: string | null | undefined): string {
  if (!period) return 'm h dom mon dow';
  if (unit === 'minutes' && 60 % period === 0) return period === 1 ? '* * * * *' : `*/${period} * * * *`;
  if (unit === 'hours' && 24 % period === 0) return period === 1 ? '0 * * * *' : `0 */${period} * * *`;
  if (unit === 'days' && period === 1) return '0 0 * * *';
  return 'm h dom mon dow';
}

/** "every 5 minutes, grace 2 minutes" or "0 3 * * * (Europe/Paris), grace 1 hours". */
export function timingText(check: CheckView): string {
  const hb = check.heartbeat;
  const expected = hb.schedule ? `${hb.schedule} (${hb.timezone ?? 'UTC'})` : `every ${hb.period} ${hb.periodUnit}`;
  return `${expected}, grace ${hb.grace} ${hb.graceUnit}`;
}

/** Where a ping came from and what it said of its run. */
export function pingDetail(e: HeartbeatEventView): string {
  const parts = [e.source ?? 'no source'];
  if (e.exitCode !== undefined) parts.push(`exit code ${e.exitCode}`);
  if (e.duration !== undefined) parts.push(`ran ${(e.duration / 1000).toFixed(1)} s`);
  if (e.rid) parts.push(`run ${e.rid}`);
  if (e.userAgent) parts.push(e.userAgent);
  return parts.join(' · ');
}

/** Where a page of the ping log ends: pings at or before `ms`, leaving out the `shown` newest at `ms` itself. */
export interface PingCursor {
  ms: number;
  shown: number;
}

/** `before=<ms>.<shown>`: undefined is the newest page; null is not a position. */
export function pingsBefore(raw: unknown): PingCursor | undefined | null {
  if (raw === undefined) return undefined;
  const match = typeof raw === 'string' ? /^(\d{1,15})\.(\d{1,3})$/.exec(raw) : null;
  return match ? { ms: Number(match[1]), shown: Number(match[2]) } : null;
}

/** The cursor after a page (newest first): pings sharing the last one's millisecond are counted, not skipped. */
export function cursorAfter(page: HeartbeatEventView[]): string {
  const ms = Date.parse(page[page.length - 1].timestamp);
  return `${ms}.${page.filter((e) => Date.parse(e.timestamp) === ms).length}`;
}
