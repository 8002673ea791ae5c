export const COMMAND_RUNNER = Symbol('COMMAND_RUNNER');
export const PROJECTION_ENGINE = Symbol('PROJECTION_ENGINE');
/** The ProcessorRunner: contexts register their Processors with it (libs/core/src/processor.ts). */
export const PROCESSOR_RUNNER = Symbol('PROCESSOR_RUNNER');
/** Whether this process runs background work (the projection daemon, watchdogs). */
export const DAEMON_ENABLED = Symbol('DAEMON_ENABLED');
