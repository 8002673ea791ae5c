import net from 'node:net';
import { TcpRequestConfig } from '../domain/monitor-config';
import { RunTimings } from '../domain/round';
import { guardedLookup, PRIVATE_CODE, PRIVATE_MESSAGE } from './guarded-lookup';
import { isPublicAddress, literalAddress } from '../../../core/src/outbound-address';
import { failed, isNetworkCode, MAX_BODY_BYTES, ProbeLimits, ProbeObservation, since } from './probe';

/** After the first bytes of an answer, this much silence ends it. */
const QUIET_MS = 200;

/** TCP monitors: connect, send the data if any, read the answer when the assertions want it, within the deadline. */
export function tcpProbe(config: TcpRequestConfig, limits: ProbeLimits): Promise<ProbeObservation> {
  const start = performance.now();
  const literal = literalAddress(config.hostname);
  if (!limits.allowPrivate && literal !== null && !isPublicAddress(literal)) return Promise.resolve(failed(PRIVATE_MESSAGE, false, 0));
  const wantsAnswer = config.data !== null || config.assertions.some((a) => a.source === 'RESPONSE_DATA');
  return new Promise((resolve) => {
    const timings: Partial<RunTimings> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    let quiet: NodeJS.Timeout | undefined;
    const socket = net.connect({ host: literal ?? config.hostname, port: config.port, lookup: guardedLookup(limits.allowPrivate) });
    const finish = (observation: ProbeObservation) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(quiet);
      socket.destroy();
      resolve(observation);
    };
    const answered = () => {
      const total = since(start);
      finish({ timings: { ...timings, total }, error: null, networkError: false, facts: { RESPONSE_DATA: Buffer.concat(chunks).toString('utf8'), RESPONSE_TIME: total } });
    };
    const deadline = setTimeout(() => {
      // Connected and waiting for an answer that did not come: what came is the answer.
      if (timings.connect !== undefined && wantsAnswer) return answered();
      finish(failed(`timed out after ${limits.deadlineMs} ms`, true, since(start), timings));
    }, limits.deadlineMs);
    socket.once('lookup', () => (timings.dns = since(start)));
    socket.once('connect', () => {
      timings.connect = since(start);
      if (!wantsAnswer) return answered();
      if (config.data !== null) socket.write(config.data);
    });
    socket.on('data', (chunk: Buffer) => {
      timings.firstByte ??= since(start);
      if (size < MAX_BODY_BYTES) chunks.push(chunk);
      size += chunk.length;
      if (size >= MAX_BODY_BYTES) return answered();
      clearTimeout(quiet);
      quiet = setTimeout(answered, QUIET_MS);
    });
    socket.on('end', answered);
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === PRIVATE_CODE) return finish(failed(PRIVATE_MESSAGE, false, since(start), timings));
      // A reset after the answer began still leaves the answer.
      if (chunks.length > 0) return answered();
      finish(failed(`connection failed: ${e.code ?? e.message}`, isNetworkCode(e.code) || e.code === undefined, since(start), timings));
    });
  });
}
