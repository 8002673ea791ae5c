import type { Logger } from 'pino';

/** What the one log line per request says. */
export interface RequestLogLine {
  reqId: string;
  method: string;
  /** The request's URL; logged without its query and with any ping token replaced. */
  url: string;
  status: number;
  /** Time to answer, in ms. */
  ms: number;
  accountId?: string;
  keyId?: string;
}

/** Paths whose last segment is a secret (ping tokens) are logged without it. */
export function loggedPath(url: string): string {
  const path = url.split('?')[0];
  return path.replace(/^\/(heartbeats\/)?ping\/[^/]+/, '/$1ping/:token');
}

/** Writes the request's line at info level, if that level is on. */
export function logRequest(logger: Logger, line: RequestLogLine): void {
  if (!logger.isLevelEnabled('info')) return;
  logger.info(
    {
      reqId: line.reqId,
      method: line.method,
      path: loggedPath(line.url),
      status: line.status,
      ms: Math.round(line.ms * 100) / 100,
      accountId: line.accountId,
      keyId: line.keyId,
    },
    'request',
  );
}
