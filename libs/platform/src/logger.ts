import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import { LogLevel } from './config';

export const LOGGER = Symbol('LOGGER');
export type VigilLogger = Logger;

/**
 * One JSON line per entry on stdout. Secrets never reach it: request logs name the route, not
 * headers or bodies, and the paths that carry a token are redacted by the request logger.
 */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): VigilLogger {
  return pino(
    {
      level,
      base: { service: 'vigil' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', 'apiKey', '*.apiKey', 'key', 'headers.authorization'], censor: '[redacted]' },
    },
    destination,
  );
}

/** Nest's own messages go through the same JSON logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: VigilLogger) {}

  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
