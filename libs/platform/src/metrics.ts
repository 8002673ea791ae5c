import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds: from a fast read-model lookup to a store call at its deadline. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The process's Prometheus metrics (GET /metrics): counters, histograms and gauges by name, each created
 * on first use and shared after, so any context can ask for the one it counts into. A registry per
 * instance, never prom-client's global one. Label values must be bounded and say nothing of a
 * customer: route templates, types, outcomes — never an account id, a key, a token or an address.
 */
export class Metrics {
  readonly registry = new Registry();

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  counter<L extends string = string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return this.once(name, Counter, () => new Counter<L>({ name, help, labelNames, registers: [this.registry] }));
  }

  histogram<L extends string = string>(name: string, help: string, labelNames: readonly L[] = [], buckets = DURATION_BUCKETS): Histogram<L> {
    return this.once(name, Histogram, () => new Histogram<L>({ name, help, labelNames, buckets, registers: [this.registry] }));
  }

  /** `collect` runs at every scrape, to set values read from elsewhere (a store, a queue). */
  gauge<L extends string = string>(name: string, help: string, labelNames: readonly L[] = [], collect?: (gauge: Gauge<L>) => Promise<void> | void): Gauge<L> {
    return this.once(name, Gauge, () => {
      const gauge: Gauge<L> = new Gauge<L>({
        name,
        help,
        labelNames,
        registers: [this.registry],
        collect: collect ? () => collect(gauge) : undefined,
      });
      return gauge;
    });
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private once<M>(name: string, kind: abstract new (...args: never[]) => M, create: () => M): M {
    const existing = this.registry.getSingleMetric(name);
    if (existing === undefined) return create();
    if (!(existing instanceof kind)) throw new Error(`Metric ${name} exists with another type`);
    return existing;
  }
}
