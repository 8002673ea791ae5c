import http from 'node:http';
import https from 'node:https';
import { Socket } from 'node:net';
import { isPublicAddress, literalAddress } from '../../../core/src/outbound-address';
import { HttpRequestConfig } from '../domain/monitor-config';
import { RunTimings } from '../domain/round';
import { guardedLookup, PRIVATE_CODE, PRIVATE_MESSAGE } from './guarded-lookup';
import { failed, isNetworkCode, MAX_BODY_BYTES, ProbeLimits, ProbeObservation, since } from './probe';

const MAX_REDIRECTS = 10;

interface Hop {
  status: number;
  headers: Record<string, string>;
  body: string;
  location: string | null;
}

class ProbeError extends Error {
  constructor(
    message: string,
    readonly network: boolean,
  ) {
    super(message);
  }
}

function targetProblem(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs';
  if (url.username || url.password) return 'URL must not carry credentials';
  const literal = literalAddress(url.hostname);
  if (!allowPrivate && literal !== null && !isPublicAddress(literal)) return PRIVATE_MESSAGE;
  return null;
}

/** One request and its answer, body read up to the cap; phases timed from `start` into `timings`. */
function exchange(url: URL, config: HttpRequestConfig, limits: ProbeLimits, start: number, timings: Partial<RunTimings>, signal: AbortSignal, first: boolean): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'user-agent': 'Vigil-Monitor/1.0' };
    for (const h of config.headers) headers[h.key.toLowerCase()] = h.value;
    if (config.basicAuth) headers.authorization = `Basic ${Buffer.from(`${config.basicAuth.username}:${config.basicAuth.password}`).toString('base64')}`;
    // A redirect is followed with a GET and no body, as browsers do for 301/302/303.
    const body = first && config.method !== 'GET' && config.method !== 'HEAD' && config.body !== '' ? config.body : null;
    if (body !== null) {
      headers['content-length'] = String(Buffer.byteLength(body));
      if (!headers['content-type'] && config.bodyType === 'JSON') headers['content-type'] = 'application/json';
      if (!headers['content-type'] && config.bodyType === 'FORM') headers['content-type'] = 'application/x-www-form-urlencoded';
      if (!headers['content-type'] && config.bodyType === 'GRAPHQL') headers['content-type'] = 'application/json';
    }
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: first ? config.method : 'GET',
      headers,
      lookup: guardedLookup(limits.allowPrivate),
      agent: false,
      rejectUnauthorized: !config.skipSSL,
      signal,
    });
    req.on('socket', (socket: Socket) => {
      socket.once('lookup', () => (timings.dns ??= since(start)));
      socket.once('connect', () => (timings.connect ??= since(start)));
      socket.once('secureConnect', () => (timings.tls ??= since(start)));
    });
    req.on('response', (res) => {
      timings.firstByte ??= since(start);
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        const flat: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8'), location: res.headers.location ?? null });
      };
      res.on('data', (chunk: Buffer) => {
        if (size >= MAX_BODY_BYTES) return;
        size += chunk.length;
        chunks.push(chunk);
        // Enough read: the rest of the body is dropped with the connection.
        if (size >= MAX_BODY_BYTES) {
          finish();
          res.destroy();
        }
      });
      res.on('end', finish);
      res.on('error', (e: NodeJS.ErrnoException) => !done && reject(new ProbeError(`response interrupted: ${e.code ?? e.message}`, true)));
      res.on('close', () => !done && reject(new ProbeError('response interrupted', true)));
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (signal.aborted) return reject(new ProbeError(`timed out after ${limits.deadlineMs} ms`, true));
      if (e.code === PRIVATE_CODE) return reject(new ProbeError(PRIVATE_MESSAGE, false));
      const tlsProblem = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO/.test(e.code ?? '');
      reject(new ProbeError(`${tlsProblem ? 'TLS' : 'connection'} failed: ${e.code ?? e.message}`, !tlsProblem && (isNetworkCode(e.code) || e.code === undefined)));
    });
    req.end(body ?? undefined);
  });
}

/** URL and API monitors: the request, redirects followed only when asked and each hop checked again, within the deadline. */
export async function httpProbe(config: HttpRequestConfig, limits: ProbeLimits): Promise<ProbeObservation> {
  const start = performance.now();
  const timings: Partial<RunTimings> = {};
  let url: URL;
  try {
    url = new URL(config.url);
    for (const q of config.queryParameters) url.searchParams.append(q.key, q.value);
  } catch {
    return failed('invalid URL', false, 0);
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.deadlineMs);
  try {
    for (let hop = 0; ; hop++) {
      const problem = targetProblem(url, limits.allowPrivate);
      if (problem) return failed(problem, false, since(start), timings);
      const answer = await exchange(url, config, limits, start, timings, controller.signal, hop === 0);
      const redirect = answer.status >= 300 && answer.status < 400 && answer.location !== null;
      if (!redirect || !config.followRedirects) {
        const total = since(start);
        let json: unknown = undefined;
        try {
          json = JSON.parse(answer.body);
        } catch {
          json = undefined;
        }
        return {
          timings: { ...timings, total },
          error: null,
          networkError: false,
          facts: { STATUS_CODE: answer.status, HEADERS: answer.headers, TEXT_BODY: answer.body, JSON_BODY: json, RESPONSE_TIME: total },
        };
      }
      if (hop >= MAX_REDIRECTS) return failed(`more than ${MAX_REDIRECTS} redirects`, false, since(start), timings);
      url = new URL(answer.location!, url);
    }
  } catch (error) {
    const e = error instanceof ProbeError ? error : new ProbeError(String(error), true);
    return failed(controller.signal.aborted ? `timed out after ${limits.deadlineMs} ms` : e.message, controller.signal.aborted || e.network, since(start), timings);
  } finally {
    clearTimeout(timer);
  }
}
