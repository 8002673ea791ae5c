import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a client's x-request-id when it is a sane token, else makes one. */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && CLIENT_ID.test(given) ? given : randomUUID();
}
