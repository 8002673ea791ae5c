export const COMMAND_RUNNER = Symbol('COMMAND_RUNNER');
export const PROJECTION_ENGINE = Symbol('PROJECTION_ENGINE');
/** The ProcessorRunner: contexts register their Processors with it (libs/core/src/processor.ts). */
export const PROCESSOR_RUNNER = Symbol('PROCESSOR_RUNNER');
export const SQLITE_DATABASE = Symbol('SQLITE_DATABASE');
/** Whether this process runs background work (the projection daemon, watchdogs). */
export const DAEMON_ENABLED = Symbol('DAEMON_ENABLED');
/** The API's EarlyRequests (libs/http/src/early-requests.ts), or null where there is no HTTP server. */
export const EARLY_REQUESTS = Symbol('EARLY_REQUESTS');
