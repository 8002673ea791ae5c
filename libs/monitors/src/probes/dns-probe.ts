import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { DnsRequestConfig } from '../domain/monitor-config';
import { decodeResponse, DnsResponse, encodeQuery } from './dns-wire';
import { PRIVATE_CODE, PRIVATE_MESSAGE, resolveGuarded } from './guarded-lookup';
import { failed, ProbeLimits, ProbeObservation, since } from './probe';

/** The system's first name server, when the monitor names none (the system resolver may well be private: it is the host's own). */
function systemNameServer(): string {
  try {
    const line = readFileSync('/etc/resolv.conf', 'utf8').split('\n').find((l) => /^\s*nameserver\s+\S+/.test(l));
    if (line) return line.trim().split(/\s+/)[1];
  } catch {
    // No resolv.conf: fall through to the public default.
  }
  return '1.1.1.1';
}

function overUdp(address: string, port: number, query: Buffer, id: number, signal: AbortSignal): Promise<DnsResponse> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(net.isIPv6(address) ? 'udp6' : 'udp4');
    const close = () => socket.close();
    signal.addEventListener('abort', () => {
      close();
      reject(new Error('timed out'));
    });
    socket.on('message', (msg) => {
      try {
        const answer = decodeResponse(msg);
        // Another id is not our answer (a late or forged one): keep waiting.
        if (answer.id !== id) return;
        close();
        resolve(answer);
      } catch (error) {
        close();
        reject(error);
      }
    });
    socket.on('error', (e) => {
      close();
      reject(e);
    });
    socket.send(query, port, address);
  });
}

function overTcp(address: string, port: number, query: Buffer, signal: AbortSignal): Promise<DnsResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port });
    signal.addEventListener('abort', () => {
      socket.destroy();
      reject(new Error('timed out'));
    });
    let buf = Buffer.alloc(0);
    socket.on('connect', () => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(query.length);
      socket.write(Buffer.concat([length, query]));
    });
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length > 65_537) return socket.destroy(new Error('answer too long'));
      if (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        socket.destroy();
        try {
          resolve(decodeResponse(buf.subarray(2, 2 + buf.readUInt16BE(0))));
        } catch (error) {
          reject(error);
        }
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('connection closed before the answer')));
  });
}

/** DNS monitors: one query of the record type to the name server (the system's when none), over UDP or TCP, within the deadline. */
export async function dnsProbe(config: DnsRequestConfig, limits: ProbeLimits): Promise<ProbeObservation> {
  const start = performance.now();
  let address: string;
  try {
    address = config.nameServer === null ? systemNameServer() : await resolveGuarded(config.nameServer, limits.allowPrivate);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return e.code === PRIVATE_CODE ? failed(PRIVATE_MESSAGE, false, since(start)) : failed(`name server not resolved: ${e.code ?? e.message}`, true, since(start));
  }
  const dns = since(start);
  const port = config.nameServer === null ? 53 : config.port;
  const { id, message } = encodeQuery(config.query, config.recordType);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.deadlineMs);
  try {
    const answer = config.protocol === 'TCP' ? await overTcp(address, port, message, controller.signal) : await overUdp(address, port, message, id, controller.signal);
    const total = since(start);
    const text = answer.answers.map((a) => `${a.name} ${a.ttl} IN ${a.type} ${typeof a.data === 'string' ? a.data : Object.values(a.data).join(' ')}`).join('\n');
    return {
      timings: { dns, total },
      // A name that does not exist is an answer; only assertions (or their default) judge it.
      error: null,
      networkError: false,
      facts: { RESPONSE_CODE: answer.rcode, TEXT_ANSWER: text, JSON_ANSWER: answer.answers, RESPONSE_TIME: total },
    };
  } catch (error) {
    const message = controller.signal.aborted ? `timed out after ${limits.deadlineMs} ms` : `query failed: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
    return failed(message, true, since(start), { dns });
  } finally {
    clearTimeout(timer);
  }
}
