import { Writable } from 'node:stream';
import pino from 'pino';
import { logRequest } from './request-log';

function logged(url: string): string {
  let out = '';
  const sink = new Writable({ write: (chunk, _enc, done) => ((out += String(chunk)), done()) });
  logRequest(pino({ level: 'info' }, sink), { reqId: 'r1', method: 'GET', url, status: 200, ms: 1 });
  return out;
}

describe('request log', () => {
  it.each([
    ['/ping/SECRETtoken123', '/ping/:token'],
    ['/ping/SECRETpingkey/nightly-backup/fail', '/ping/:token/nightly-backup/fail'],
    ['/heartbeats/ping/SECRETtoken123/start', '/heartbeats/ping/:token/start'],
    ['/subscriptions/confirm/SECRET.eyJzdWIiOiJ4In0.sig', '/subscriptions/confirm/:token'],
    ['/subscriptions/unsubscribe/SECRET.eyJzdWIiOiJ4In0.sig', '/subscriptions/unsubscribe/:token'],
    ['/v1/checks?apiKey=SECRETkey&token=SECRET', '/v1/checks'],
  ])('logs %s without its secret', (url, path) => {
    const line = logged(url);
    expect(JSON.parse(line).path).toBe(path);
    expect(line).not.toContain('SECRET');
  });
});
