import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { LookupFunction } from 'node:net';
import { isPublicAddress, literalAddress } from '../../../core/src/outbound-address';
import { DeliveryError } from './delivery-error';

export interface OutboundRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}

export interface OutboundResponse {
  status: number;
  body: string;
}

const MAX_RESPONSE_BYTES = 64 * 1024;
export const UNREACHABLE_NAME = 'target host has no public address';
const MAX_RETRY_AFTER_MS = 3_600_000;

/** Refuses every resolved address that is not public unicast, so DNS rebinding cannot reach inside. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const answer = callback as (e: Error | null, a: LookupAddress[] | string, f?: number) => void;
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return answer(error, []);
      const list = addresses as LookupAddress[];
      const refused = !allowPrivate && list.some((a) => !isPublicAddress(a.address));
      if (refused || list.length === 0) return answer(Object.assign(new Error(`${hostname} resolves to a private or reserved address`), { code: 'EVIGILPRIVATE' }), []);
      if ((options as { all?: boolean }).all) return answer(null, list);
      answer(null, list[0].address, list[0].family);
    });
  };
}

/** Seconds or an HTTP date, capped; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  const ms = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) * 1000 : Date.parse(raw) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : null;
}

/**
 * One outbound HTTP request under Vigil's rules: http/https only, private targets refused after DNS
 * (unless allowed), no redirects followed, a deadline for the whole exchange, the response body read
 * up to a cap. Resolves for 2xx; throws a DeliveryError otherwise.
 */
export function sendOutbound(request: OutboundRequest, timeoutMs: number, allowPrivate: boolean): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return reject(new DeliveryError('invalid URL', false));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject(new DeliveryError('only http and https URLs', false));
    const literal = literalAddress(url.hostname);
    if (!allowPrivate && literal !== null && !isPublicAddress(literal)) return reject(new DeliveryError('target is a private or reserved address', false));
    const client = url.protocol === 'https:' ? https : http;
    const headers: Record<string, string | number> = { 'user-agent': 'Vigil-Notifier/1.0', ...request.headers };
    if (request.body !== null) headers['content-length'] = Buffer.byteLength(request.body);
    let settled = false;
    const finish = (error: DeliveryError | null, response?: OutboundResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(response!);
    };
    let req: http.ClientRequest;
    try {
      req = client.request(url, { method: request.method, headers, lookup: guardedLookup(allowPrivate), agent: false }, onResponse);
    } catch (error) {
      // An invalid header name or value, or method: no retry can fix it.
      return reject(new DeliveryError(`request refused before sending: ${String((error as NodeJS.ErrnoException).code ?? (error as Error).message)}`, false));
    }
    function onResponse(res: http.IncomingMessage) {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size >= MAX_RESPONSE_BYTES) return;
        size += chunk.length;
        chunks.push(chunk);
        if (size >= MAX_RESPONSE_BYTES) res.destroy();
      });
      const done = () => {
        const status = res.statusCode ?? 0;
        const body = Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
        if (status >= 200 && status < 300) return finish(null, { status, body });
        if (status === 429 || status >= 500) return finish(new DeliveryError(`HTTP ${status}`, true, parseRetryAfter(res.headers['retry-after'], Date.now())));
        if (status >= 300 && status < 400) return finish(new DeliveryError(`HTTP ${status}: redirects are not followed`, false));
        finish(new DeliveryError(`HTTP ${status}`, false));
      };
      res.on('end', done);
      res.on('close', done);
      res.on('error', () => finish(new DeliveryError('response interrupted', true)));
    }
    const timer = setTimeout(() => {
      finish(new DeliveryError(`timed out after ${timeoutMs} ms`, true));
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A name that does not exist and one that resolves inside read the same: the log must not map a private network.
      if (error.code === 'EVIGILPRIVATE' || error.code === 'ENOTFOUND') return finish(new DeliveryError(UNREACHABLE_NAME, false));
      finish(new DeliveryError(`connection failed: ${error.code ?? error.message}`, true));
    });
    req.end(request.body ?? undefined);
  });
}
