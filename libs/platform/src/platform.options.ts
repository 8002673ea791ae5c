import { Clock } from '../../core/src/clock';
import { IdGenerator } from '../../core/src/ids';
import { VigilConfig } from './config';
import { VigilLogger } from './logger';

export interface PlatformOptions {
  config: VigilConfig;
  /** Tests inject a manual clock and predictable ids. */
  clock?: Clock;
  ids?: IdGenerator;
  /** The CLI and tests may turn the background work off whatever the config says. */
  daemon?: boolean;
  /** One logger for Fastify, Nest and background work. */
  logger?: VigilLogger;
}
