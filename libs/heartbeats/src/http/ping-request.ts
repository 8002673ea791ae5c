import { newEventId } from '../../../core/src/ids';
import { HeartbeatCommand, PingSignal } from '../domain/heartbeat.decider';

export const MAX_PING_BODY_BYTES = 100 * 1024;
/** The first 10,000 bytes of a POST body are stored with its event (header `Ping-Body-Limit`). */
export const PING_BODY_LIMIT = 10_000;
/** The run signals a ping URL may end with, beside an exit code 0–255. */
export const PING_SIGNALS = ['start', 'fail', 'log'] as const;

/** A header's first value, at most 1 KB of it; null when absent or empty. */
export function headerValue(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && text !== '' ? text.slice(0, 1024) : null;
}

/** Link unfurlers fetch URLs pasted into chats; their visits are not heartbeats. */
const BOTS = /slackbot|twitterbot|facebookexternalhit|facebot|discordbot|telegrambot|whatsapp|linkedinbot|googlebot/i;

export function isLinkPreviewBot(userAgent: string | null | undefined): boolean {
  return typeof userAgent === 'string' && BOTS.test(userAgent);
}

export type Signal = { signal?: PingSignal; exitCode?: number } | { error: 400 | 404; message: string };

/** The signal a path segment names: start, fail, log or an exit code 0–255. */
export function signalOf(segment: string | undefined): Signal {
  if (segment === undefined) return {};
  const word = segment.toLowerCase();
  if ((PING_SIGNALS as readonly string[]).includes(word)) return { signal: word as PingSignal };
  if (/^[0-9]{1,10}$/.test(segment)) {
    const exitCode = Number(segment);
    return exitCode <= 255 ? { exitCode } : { error: 400, message: 'exit code must be an integer from 0 to 255' };
  }
  return { error: 404, message: 'Unknown ping signal (start, fail, log or an exit code 0–255)' };
}

export interface PingRequest {
  source: string | null;
  userAgent: string | null;
  signal?: PingSignal;
  exitCode?: number;
  rid?: string | null;
  /** The raw POST body; its first PING_BODY_LIMIT bytes are kept. */
  body?: Buffer | null;
}

/** The heartbeat decider's Ping for a request received at `now` (ms). */
export function pingCommand(request: PingRequest, now: number): HeartbeatCommand {
  const command: HeartbeatCommand = { type: 'Ping', eventId: newEventId(now), at: new Date(now).toISOString(), source: request.source, userAgent: request.userAgent };
  if (request.signal) command.signal = request.signal;
  if (request.exitCode !== undefined) command.exitCode = request.exitCode;
  if (request.rid) command.rid = request.rid;
  if (request.body && request.body.length > 0) {
    command.body = request.body.subarray(0, PING_BODY_LIMIT).toString('utf8');
    if (request.body.length > PING_BODY_LIMIT) command.truncated = true;
  }
  return command;
}
