import { IncomingMessage } from 'node:http';
import { FastifyInstance } from 'fastify';

/** How much of a refused body is read and dropped so its sender reads the 413; beyond it the connection just closes. */
const MAX_DISCARDED_BYTES = 16 * 1024 * 1024;
const DISCARD_TIMEOUT_MS = 10_000;
const ENDINGS = ['end', 'close', 'error'] as const;

/**
 * Reads and drops the rest of a request body, up to MAX_DISCARDED_BYTES or 10 s. A client that sends
 * its whole body at once (Node's http and fetch, most SDKs) is still sending when a 413 is ready; were
 * the connection closed then, the unread bytes would make the kernel reset it and the client would see
 * the reset instead of the answer (nginx's "lingering close" solves the same problem).
 */
function discardUnreadBody(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.readableEnded || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      for (const event of ENDINGS) raw.off(event, finish);
      resolve();
    };
    const onData = (chunk: Buffer | string) => {
      seen += chunk.length;
      if (seen > MAX_DISCARDED_BYTES) finish();
    };
    const timer = setTimeout(finish, DISCARD_TIMEOUT_MS);
    raw.on('data', onData);
    for (const event of ENDINGS) raw.once(event, finish);
    raw.resume();
  });
}

/** Every 413, whichever route or parser refused the body, waits for the rest of the body to be dropped. */
export function installBodyDrain(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode !== 413) return done(null, payload);
    void discardUnreadBody(request.raw).then(() => done(null, payload));
  });
}
