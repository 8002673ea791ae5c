import { asDecided, RecordedEvent } from '../../../core/src/event';
import { EventStore } from '../../../event-store/src/event-store.port';
import { MonitorEvent, monitorStream } from '../domain/monitor.decider';
import { MonitorConfig } from '../domain/monitor-config';
import { runOf } from '../domain/run-codec';

/** A run as Checkly's check results show it (`GET /v2/check-results/{checkId}`). */
export interface CheckResultView {
  id: string;
  checkId: string;
  name: string;
  hasFailures: boolean;
  hasErrors: boolean;
  isDegraded: boolean;
  overMaxResponseTime: boolean;
  runLocation: string;
  startedAt: string;
  stoppedAt: string;
  created_at: string;
  responseTime: number;
  checkRunId: number;
  attempts: number;
  resultType: 'FINAL' | 'ATTEMPT';
  error: string | null;
  timings: Record<string, number>;
}

export interface ResultsFilter {
  limit: number;
  /** Only runs recorded before this stream revision (the previous page's `nextId`). */
  before: bigint | null;
  resultType: 'FINAL' | 'ATTEMPT' | 'ALL';
  hasFailures: boolean | null;
  fromMs: number | null;
  toMs: number | null;
}

const BATCH = 200;
/** A page reads at most this many events of the stream, so a sparse filter cannot make one request read everything. */
const MAX_SCANNED = 10_000;

function present(event: RecordedEvent, monitorId: string, config: MonitorConfig): CheckResultView | null {
  const e = asDecided<MonitorEvent>(event);
  if (e.type !== 'MonitorRunRecorded') return null;
  const run = runOf(e.data);
  return {
    id: event.revision.toString(),
    checkId: monitorId,
    name: config.name,
    hasFailures: run.outcome === 'FAIL',
    hasErrors: run.outcome === 'FAIL' && run.networkError,
    isDegraded: run.outcome === 'DEGRADED',
    overMaxResponseTime: run.timings.total > config.maxResponseTime,
    runLocation: run.location,
    startedAt: run.startedAt,
    stoppedAt: new Date(Date.parse(run.startedAt) + run.timings.total).toISOString(),
    created_at: event.metadata.occurredAt,
    responseTime: run.timings.total,
    checkRunId: Date.parse(run.roundAt),
    attempts: run.attempt,
    resultType: run.final ? 'FINAL' : 'ATTEMPT',
    error: run.error,
    timings: { ...run.timings },
  };
}

/** A monitor's runs, newest first, read from its stream backwards; the raw history is the log itself. */
export async function readResults(events: EventStore, monitorId: string, config: MonitorConfig, filter: ResultsFilter): Promise<{ entries: CheckResultView[]; nextId: string | null }> {
  const entries: CheckResultView[] = [];
  let from = filter.before === null ? undefined : filter.before - 1n;
  let scanned = 0;
  while (entries.length < filter.limit && scanned < MAX_SCANNED && (from === undefined || from >= 0n)) {
    const batch = await events.readStream(monitorStream(monitorId), { direction: 'backwards', fromRevision: from, maxCount: BATCH });
    if (batch.length === 0) break;
    for (const event of batch) {
      scanned++;
      const result = present(event, monitorId, config);
      from = event.revision - 1n;
      if (result === null) continue;
      const at = Date.parse(result.startedAt);
      if (filter.toMs !== null && at > filter.toMs) continue;
      if (filter.fromMs !== null && at < filter.fromMs) return { entries, nextId: null };
      if (filter.resultType !== 'ALL' && result.resultType !== filter.resultType) continue;
      if (filter.hasFailures !== null && result.hasFailures !== filter.hasFailures) continue;
      entries.push(result);
      if (entries.length === filter.limit) return { entries, nextId: event.revision > 0n ? event.revision.toString() : null };
    }
    if (batch.length < BATCH) break;
  }
  return { entries, nextId: from !== undefined && from >= 0n && scanned >= MAX_SCANNED ? (from + 1n).toString() : null };
}
