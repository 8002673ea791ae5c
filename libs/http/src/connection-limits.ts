import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { TrafficLimits } from '../../platform/src/config';
import { addressBucket, addressMatcher } from './budgets';

/**
 * Fastify server options with a deadline on every stage of a connection: headers, the whole request
 * (body included), idle keep-alive. Node answers a late request 408 (through the client error handler)
 * and closes it; the deadlines are checked every `checkEveryMs`.
 */
export function connectionDeadlines(limits: TrafficLimits) {
  const checkEveryMs = Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4)));
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: checkEveryMs,
    },
    ...(limits.trustedProxies.length > 0 ? { trustProxy: limits.trustedProxies } : {}),
  };
}

/**
 * At most `connectionsPerAddress` open connections per client address (IPv6 by /64); more are closed
 * as they arrive. A trusted proxy's connections are not counted: it carries everyone's.
 */
export function capConnectionsPerAddress(server: Server, limits: TrafficLimits): { open: (address: string) => number } {
  const open = new Map<string, number>();
  const trusted = addressMatcher(limits.trustedProxies);
  server.on('connection', (socket: Socket) => {
    const remote = socket.remoteAddress;
    if (!remote || trusted(remote)) return;
    const bucket = addressBucket(remote);
    const count = (open.get(bucket) ?? 0) + 1;
    if (count > limits.connectionsPerAddress) {
      socket.destroy();
      return;
    }
    open.set(bucket, count);
    socket.once('close', () => {
      const left = (open.get(bucket) ?? 1) - 1;
      if (left <= 0) open.delete(bucket);
      else open.set(bucket, left);
    });
  });
  return { open: (address) => open.get(addressBucket(address)) ?? 0 };
}
