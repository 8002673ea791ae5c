/** The monitors context's face: what other contexts and apps may use. */
export { MonitorsModule } from './monitors.module';
export { RunMonitorCommand } from './write/monitor.handler';
export type { MonitorRunResult } from './write/monitor.handler';
export type { MonitorCommand, MonitorEvent, MonitorOutage } from './domain/monitor.decider';
export type { CheckType, MonitorConfig } from './domain/monitor-config';
export type { MonitorRun, MonitorStatus, RunOutcome } from './domain/round';
export { MonitorsQuery } from './read/monitors.queries';
export type { MonitorsAnswers, MonitorsQuestion, MonitorView, RollupView } from './read/monitors.queries';
export type { LocationView } from './read/locations';
export type { CheckResultView } from './read/monitor-results';
/** Offered to alerting: it validates the alerting parts of a monitor's configuration. */
export { MonitorLinks, type MonitorLinkValidator } from './write/monitor-links';
export type { AlertChannelSubscription as MonitorAlertSubscription, IncidentTrigger } from './domain/monitor-config';
export { expiringDays } from './domain/certificate-expiry';
export type { ServiceHealth } from './read/service-health';
export { CHART_HOURS } from './read/service-health';
/** The public pages' cache follows the monitors' links and states through this projection's collection. */
export { serviceMonitorsProjection } from './read/service-monitors.projection';
export { RunRunnerKeyCommand } from './write/runner-key.handler';
export type { RunnerKeyCommand, RunnerKeyEvent } from './domain/runner-key.decider';
export type { LocationEvent } from './domain/location.decider';
export type { RunnerKeySummary } from './read/monitors.queries';
export { newRunnerKey } from './domain/runner-key-secret';
export { parseRunnerKeyBody } from './http/runner-keys.controller';
/** For the runner app: the probes and the retry rule the embedded location uses. */
export { runProbe } from './probes/run-probe';
export { retryDelaySeconds } from './domain/retry';
export { intervalSeconds } from './domain/monitor-config';
export type { LeaseAnswer, ReportedRun } from './write/runner-leases';
/** Retention of raw runs (rollups kept for good), for the retention tests. */
export { RunRetention } from './write/run-retention';
