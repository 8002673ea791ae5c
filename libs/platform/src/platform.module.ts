import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { BackgroundLoop } from '../../core/src/background-loop';
import { CLOCK, Clock, SystemClock } from '../../core/src/clock';
import { ID_GENERATOR, UuidV7Generator } from '../../core/src/ids';
import { EVENT_STORE } from '../../event-store/src/event-store.port';
import { CommandRunner } from '../../event-store/src/command-runner';
import { LogWatch } from '../../event-store/src/log-watch';
import { idempotentRetries, RetryStableIds } from '../../http/src/idempotent-attempt';
import { CURSOR_CODEC, CursorCodec } from '../../http/src/pagination';
import { AnswerCache } from '../../http/src/response-cache';
import { BatchingReadStore } from '../../read-store/src/batched-reads';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { ProcessorRunner } from '../../read-store/src/processor-runner';
import { META_REFRESH_MS } from '../../read-store/src/projection-generations';
import { READ_STORE } from '../../read-store/src/read-store.port';
import { sharedSecret } from '../../read-store/src/shared-secret';
import { VIGIL_CONFIG } from './config';
import { createLogger, LOGGER, VigilLogger } from './logger';
import { Metrics } from './metrics';
import { RequestMetrics } from './request-metrics';
import { PlatformOptions } from './platform.options';
import { openStores, Stores } from './stores';
import { COMMAND_RUNNER, DAEMON_ENABLED, PROCESSOR_RUNNER, PROJECTION_ENGINE } from './tokens';

const STORES = Symbol('STORES');
const PROJECTION_METRICS = Symbol('PROJECTION_METRICS');

/**
 * Starts the projection engine once every context has registered its projections; where the daemon
 * runs, catches the read models up first, then runs the daemon and the processors in the background.
 */
@Injectable()
export class ProjectionLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;
  private processing: Promise<void> | null = null;
  private watch: LogWatch | null = null;
  private follow: BackgroundLoop | null = null;

  constructor(
    @Inject(STORES) private readonly stores: Stores,
    @Inject(PROCESSOR_RUNNER) private readonly processors: ProcessorRunner,
    @Inject(DAEMON_ENABLED) private readonly daemon: boolean,
    @Inject(LOGGER) private readonly logger: VigilLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.stores.engine.start();
    await this.processors.start();
    // Embedded processes (server, CLI) and the production worker catch up first; API instances beside a worker serve at once.
    if (this.daemon || this.stores.db) await this.stores.engine.catchUp();
    if (this.daemon) {
      // Production: one subscription tells both readers when the log moves, instead of polling the stores
      // (embedded, polling the local file costs no round trip, and inline projections leave the daemon little to do).
      const watch = this.stores.db ? undefined : new LogWatch(this.stores.eventStore);
      watch?.start(this.abort.signal, await this.stores.eventStore.headPosition());
      this.watch = watch ?? null;
      this.running = this.stores.engine.run(this.abort.signal, undefined, watch);
      this.processing = this.processors.run(this.abort.signal, undefined, watch);
      this.logger.info('projection daemon started');
    } else {
      // Reads must move to a rebuilt generation before the old one is dropped, daemon or not.
      this.follow = new BackgroundLoop({ name: 'projection generations refresh', idleMs: META_REFRESH_MS, pass: () => this.stores.engine.refreshGenerations(), logger: this.logger });
      this.follow.start();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.abort.abort();
    await this.follow?.stop();
    await this.running;
    await this.processing;
    await this.watch?.stopped();
    await this.stores.close();
  }
}

@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformOptions): DynamicModule {
    const clock = options.clock ?? new SystemClock();
    const logger = options.logger ?? createLogger(options.config.logLevel);
    return {
      module: PlatformModule,
      imports: [CqrsModule.forRoot()],
      providers: [
        { provide: VIGIL_CONFIG, useValue: options.config },
        { provide: CLOCK, useValue: clock },
        // Attempts of one idempotent request make the same ids, so a retried create lands where the first did.
        { provide: ID_GENERATOR, useValue: new RetryStableIds(options.ids ?? new UuidV7Generator()) },
        { provide: LOGGER, useValue: logger },
        { provide: DAEMON_ENABLED, useValue: options.daemon ?? options.config.daemon },
        { provide: Metrics, useValue: options.metrics ?? new Metrics() },
        { provide: RequestMetrics, useFactory: (m: Metrics) => new RequestMetrics(m), inject: [Metrics] },
        { provide: STORES, useFactory: (m: Metrics) => options.openStores?.() ?? openStores(options.config, logger, clock, m), inject: [Metrics] },
        {
          provide: PROJECTION_METRICS,
          // Read at every scrape; a store that does not answer leaves the gauge empty (its errors are counted).
          useFactory: (m: Metrics, s: Stores) =>
            m.gauge('vigil_projection_lag', 'How far each serving read model is behind the event log head, as the projection engine reports it', ['projection'], async (gauge) => {
              gauge.reset();
              const statuses = await s.engine.status().catch(() => []);
              for (const status of statuses) gauge.set({ projection: status.name }, status.lag);
            }),
          inject: [Metrics, STORES],
        },
        { provide: EVENT_STORE, useFactory: (s: Stores) => s.eventStore, inject: [STORES] },
        // Where a read is a round trip, the reads a request makes together go out as one (BatchingReadStore.together);
        // the embedded file answers in-process, and batching would only make a page yield to other requests.
        { provide: READ_STORE, useFactory: (s: Stores) => (s.db ? s.readStore : new BatchingReadStore(s.readStore)), inject: [STORES] },
        { provide: PROJECTION_ENGINE, useFactory: (s: Stores) => s.engine, inject: [STORES] },
        {
          provide: PROCESSOR_RUNNER,
          useFactory: (s: Stores) => new ProcessorRunner(s.eventStore, s.readStore, { error: (message, fields) => logger.error(fields ?? {}, message) }),
          inject: [STORES],
        },
        {
          provide: COMMAND_RUNNER,
          useFactory: (s: Stores, c: Clock, m: Metrics) =>
            new CommandRunner(
              s.eventStore,
              c,
              s.engine,
              m.counter('vigil_events_appended_total', 'Events appended to the event store, by stream type', ['stream_type']),
              idempotentRetries,
            ),
          inject: [STORES, CLOCK, Metrics],
        },
        {
          provide: CURSOR_CODEC,
          // Shared by every instance through the read store, so a cursor from one works on another.
          useFactory: async (s: Stores) => new CursorCodec(await sharedSecret(s.readStore, 'cursor-secret')),
          inject: [STORES],
        },
        ProjectionLifecycle,
        AnswerCache,
      ],
      exports: [
        CqrsModule,
        VIGIL_CONFIG,
        CLOCK,
        ID_GENERATOR,
        LOGGER,
        EVENT_STORE,
        READ_STORE,
        PROJECTION_ENGINE,
        PROCESSOR_RUNNER,
        COMMAND_RUNNER,
        CURSOR_CODEC,
        DAEMON_ENABLED,
        Metrics,
        RequestMetrics,
        AnswerCache,
      ],
    };
  }
}

export type { ProjectionEngine };
