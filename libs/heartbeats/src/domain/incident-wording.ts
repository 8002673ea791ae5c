/**
 * The words of the incidents a check opens, for the people who read the status page and its emails:
 * the service's name and a time as they read it, nothing about checks, deadlines or ISO timestamps.
 */

/** A check failing again this soon after its incident was resolved reopens that incident instead of opening a new one. */
export const FLAP_WINDOW_MS = 30 * 60_000;

const TIME_FORMAT = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });

/** "1 Jul 2026, 12:03 UTC". */
export function customerTime(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : `${TIME_FORMAT.format(new Date(ms))} UTC`;
}

const subject = (serviceName: string | null) => serviceName ?? 'one of our services';

export function openedWords(serviceName: string | null, at: string): string {
  return `We are investigating a problem with ${subject(serviceName)} that started at ${customerTime(at)}.`;
}

export function reopenedWords(serviceName: string | null, at: string): string {
  return `The problem with ${subject(serviceName)} came back at ${customerTime(at)}. We are investigating.`;
}

export function resolvedWords(serviceName: string | null, at: string): string {
  const name = serviceName ?? 'The affected service';
  return `${name} has been working normally again since ${customerTime(at)}.`;
}
