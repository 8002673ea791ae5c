import { Clock } from '../../core/src/clock';
import { IdGenerator } from '../../core/src/ids';
import { VigilConfig } from './config';
import { VigilLogger } from './logger';
import { Metrics } from './metrics';
import type { Stores } from './stores';

export interface PlatformOptions {
  config: VigilConfig;
  /** Tests inject a manual clock and predictable ids. */
  clock?: Clock;
  ids?: IdGenerator;
  /** The CLI and tests may turn the background work off whatever the config says. */
  daemon?: boolean;
  /** One logger for Fastify, Nest and background work. */
  logger?: VigilLogger;
  /** The process's metrics registry; one is made when omitted. */
  metrics?: Metrics;
  /** Tests assemble the stores from real adapters another way (e.g. EventStoreDB against a fault injector). */
  openStores?: () => Promise<Stores>;
}
