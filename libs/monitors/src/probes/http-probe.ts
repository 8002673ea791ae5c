import http from 'node:http';
import https from 'node:https';
import { connect as tcpConnect, isIP, LookupFunction, Socket } from 'node:net';
import { ConnectionOptions, connect as tlsConnect } from 'node:tls';
import { isPublicAddress, literalAddress } from '../../../core/src/outbound-address';
import { HttpRequestConfig } from '../domain/monitor-config';
import { RunTimings } from '../domain/round';
import { guardedLookup, PRIVATE_CODE, PRIVATE_MESSAGE } from './guarded-lookup';
import { failed, isNetworkCode, MAX_BODY_BYTES, ProbeLimits, ProbeObservation, since } from './probe';

const MAX_REDIRECTS = 10;
/** One lookup per permission, made once: a request to an address literal never calls it. */
const LOOKUPS = { allowed: guardedLookup(true), refused: guardedLookup(false) };

/**
 * Each request on its own connection, closed after the answer (`Connection: close`), as a new Agent per request
 * did, without building that Agent: the DNS, connect and TLS phases are part of what a probe measures.
 */
function openSocket(tls: boolean, host: string, port: number, lookup: LookupFunction, rejectUnauthorized: boolean, hostHeader: string | undefined): Socket {
  // No Nagle: the options Node's agents pass.
  if (!tls) return tcpConnect({ host, port, lookup, noDelay: true });
  const options: ConnectionOptions & { noDelay: boolean } = { host, port, lookup, noDelay: true, rejectUnauthorized, servername: serverName(host, hostHeader) };
  return tlsConnect(options);
}

/** SNI as Node's agents send it: the Host header's name (else the host) without its port; none for an address. */
function serverName(host: string, hostHeader: string | undefined): string {
  let name = host;
  if (hostHeader && hostHeader.startsWith('[')) name = hostHeader.includes(']') ? hostHeader.slice(1, hostHeader.indexOf(']')) : hostHeader;
  else if (hostHeader) name = hostHeader.split(':', 1)[0];
  return isIP(name) ? '' : name;
}

interface Hop {
  status: number;
  headers: Record<string, string>;
  body: string;
  location: string | null;
}

/** The probe's one timer: when it passes, the request in flight is destroyed and no other starts. */
interface Deadline {
  passed: boolean;
  request: http.ClientRequest | null;
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
function exchange(url: URL, config: HttpRequestConfig, limits: ProbeLimits, start: number, timings: Partial<RunTimings>, deadline: Deadline, first: boolean): Promise<Hop> {
  return new Promise((resolve, reject) => {
    if (deadline.passed) return reject(new ProbeError(`timed out after ${limits.deadlineMs} ms`, true));
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
    const tls = url.protocol === 'https:';
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const port = url.port === '' ? (tls ? 443 : 80) : Number(url.port);
    const lookup = limits.allowPrivate ? LOOKUPS.allowed : LOOKUPS.refused;
    const req = (tls ? https : http).request(url, {
      method: first ? config.method : 'GET',
      headers,
      defaultPort: tls ? 443 : 80,
      createConnection: () => openSocket(tls, host, port, lookup, !config.skipSSL, headers.host),
    });
    deadline.request = req;
    req.on('socket', (socket: Socket) => {
      // An address literal is not looked up: no DNS phase.
      if (isIP(host) === 0) socket.once('lookup', () => (timings.dns ??= since(start)));
      socket.once('connect', () => (timings.connect ??= since(start)));
      if (tls) socket.once('secureConnect', () => (timings.tls ??= since(start)));
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
        const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: flat, body: body.subarray(0, MAX_BODY_BYTES).toString('utf8'), location: res.headers.location ?? null });
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
      if (deadline.passed) return reject(new ProbeError(`timed out after ${limits.deadlineMs} ms`, true));
      if (e.code === PRIVATE_CODE) return reject(new ProbeError(PRIVATE_MESSAGE, false));
      const tlsProblem = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO/.test(e.code ?? '');
      reject(new ProbeError(`${tlsProblem ? 'TLS' : 'connection'} failed: ${e.code ?? e.message}`, !tlsProblem && (isNetworkCode(e.code) || e.code === undefined)));
    });
    req.end(body ?? undefined);
  });
}

/** What assertions read; the body is parsed as JSON only when one reads it (most bodies are not JSON, and a failed parse costs a thrown error). */
function httpFacts(answer: Hop, total: number): Record<string, unknown> {
  let json: { value: unknown } | null = null;
  return {
    STATUS_CODE: answer.status,
    HEADERS: answer.headers,
    TEXT_BODY: answer.body,
    get JSON_BODY(): unknown {
      if (json === null) {
        try {
          json = { value: JSON.parse(answer.body) };
        } catch {
          json = { value: undefined };
        }
      }
      return json.value;
    },
    RESPONSE_TIME: total,
  };
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
  const deadline: Deadline = { passed: false, request: null };
  const timer = setTimeout(() => {
    deadline.passed = true;
    deadline.request?.destroy(new ProbeError(`timed out after ${limits.deadlineMs} ms`, true));
  }, limits.deadlineMs);
  try {
    for (let hop = 0; ; hop++) {
      const problem = targetProblem(url, limits.allowPrivate);
      if (problem) return failed(problem, false, since(start), timings);
      const answer = await exchange(url, config, limits, start, timings, deadline, hop === 0);
      const redirect = answer.status >= 300 && answer.status < 400 && answer.location !== null;
      if (!redirect || !config.followRedirects) {
        const total = since(start);
        return { timings: { ...timings, total }, error: null, networkError: false, facts: httpFacts(answer, total) };
      }
      if (hop >= MAX_REDIRECTS) return failed(`more than ${MAX_REDIRECTS} redirects`, false, since(start), timings);
      url = new URL(answer.location!, url);
    }
  } catch (error) {
    const e = error instanceof ProbeError ? error : new ProbeError(String(error), true);
    return failed(deadline.passed ? `timed out after ${limits.deadlineMs} ms` : e.message, deadline.passed || e.network, since(start), timings);
  } finally {
    clearTimeout(timer);
  }
}
