import type { Logger } from 'pino';

/** What the one log line per request says. */
interface RequestLogLine {
  reqId: string;
  method: string;
  /** The request's URL; logged without its query and with any token replaced. */
  url: string;
  status: number;
  /** Time to answer, in ms. */
  ms: number;
  accountId?: string;
  keyId?: string;
}

/** Path segments that are secrets: ping tokens and ping keys, subscriber confirm and unsubscribe tokens. */
const SECRET_SEGMENTS: [RegExp, string][] = [
  [/^\/(heartbeats\/)?ping\/[^/]+/, '/$1ping/:token'],
  [/^\/subscriptions\/(confirm|unsubscribe)\/[^/]+/, '/subscriptions/$1/:token'],
];

/** The path as logged: no query (tokens travel there too), and every secret segment replaced. */
function loggedPath(url: string): string {
  let path = url.split('?')[0];
  for (const [pattern, replacement] of SECRET_SEGMENTS) path = path.replace(pattern, replacement);
  return path;
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
