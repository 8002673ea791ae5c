import { Counter, Histogram } from 'prom-client';
import { Metrics } from './metrics';

/** What a request is labelled by when no route matched: one value, whatever the URL was. */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * Requests by method, route template and status (never the raw URL: it carries ids and tokens), and
 * pings accepted or rejected, counted from the answers of the routes the heartbeats context names.
 */
export class RequestMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route' | 'status'>;
  private readonly pings: Counter<'outcome' | 'status'>;
  private readonly pingRoutes = new Set<string>();

  constructor(metrics: Metrics) {
    this.requests = metrics.counter('vigil_http_requests_total', 'HTTP requests answered, by method, route template and status', ['method', 'route', 'status']);
    this.durations = metrics.histogram('vigil_http_request_duration_seconds', 'Time to answer an HTTP request, by method, route template and status', ['method', 'route', 'status']);
    this.pings = metrics.counter('vigil_pings_total', 'Heartbeat pings answered: accepted (2xx) or rejected, with the status', ['outcome', 'status']);
  }

  /** Answers on these route templates also count as pings. */
  countAsPings(routes: readonly string[]): void {
    for (const route of routes) this.pingRoutes.add(route);
  }

  record(method: string, route: string | undefined, status: number, seconds: number): void {
    const labels = { method, route: route ?? UNMATCHED_ROUTE, status: String(status) };
    this.requests.inc(labels);
    this.durations.observe(labels, seconds);
    if (route !== undefined && this.pingRoutes.has(route)) {
      this.pings.inc({ outcome: status < 300 ? 'accepted' : 'rejected', status: labels.status });
    }
  }
}
