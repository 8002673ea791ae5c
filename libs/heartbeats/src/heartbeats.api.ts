/** What other contexts and apps may use of heartbeats. */
export { HeartbeatsModule } from './heartbeats.module';
export { RunHeartbeatCheckCommand, type HeartbeatCheckRun } from './write/heartbeat-check.handler';
export { RunHeartbeatCommand, type HeartbeatRun } from './write/heartbeat.handler';
export type { AlertChannelSubscription, CheckConfig, CheckInput, HeartbeatCheckCommand, HeartbeatCheckEvent, Severity } from './domain/heartbeat-check.decider';
export type { HeartbeatCommand } from './domain/heartbeat.decider';
export { outageOf, type FailedData, type HeartbeatEvent, type Outage, type PingReceivedData } from './domain/heartbeat.events';
export { HeartbeatsQuery, type HeartbeatsAnswers, type HeartbeatsQuestion } from './read/heartbeats.queries';
export type { CheckStatusView, CheckView } from './read/check-directory';
export type { CheckPage, CheckSummary } from './read/check-index';
export { CHECK_STATES, type CheckState } from './read/check-state';
export type { CheckDoc } from './read/heartbeat-checks.projection';
export type { Availability, HeartbeatEventView } from './read/heartbeat-stats';
export type { TimeWindow } from './read/heartbeat-window';
/** Offered to alerting: it validates the alerting parts of a check's configuration. */
export { CheckAlertLinks, type CheckAlertValidator } from './write/check-alert-links';
/** Background work the apps drive and the e2e tests step. */
export { HeartbeatWatchdog } from './write/heartbeat-watchdog';
export { EventRetention } from './write/event-retention';
/** Services offered while the agent and status pages move to HeartbeatsQuery. */
export { CheckDirectory } from './read/check-directory';
export { HeartbeatStats } from './read/heartbeat-stats';
export { SlugPings } from './write/slug-pings';
/** The ping routes, for the OpenAPI document. */
export { PING_METHODS, PING_PATHS } from './http/ping.routes';
export { MAX_PING_BODY_BYTES, PING_BODY_LIMIT } from './http/ping-request';
/** Offered to monitors: their checks join `/v1/checks` and `/v1/check-statuses`. */
export { OtherChecks, type CatalogCheck, type OtherChecksSource } from './read/other-checks';
