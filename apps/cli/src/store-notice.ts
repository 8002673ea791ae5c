import { existsSync } from 'node:fs';
import { VigilConfig } from '../../../libs/platform/src/config';

/** Commands that may create the embedded database (an operator's first step); all others refuse a missing one. */
const CREATING = new Set(['accounts create']);

/** A connection string without its credentials: it goes to stderr. */
function withoutCredentials(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

/** The store a command opens, as one line for stderr. */
export function storeLine(config: VigilConfig): string {
  return config.eventStoreUrl
    ? `Vigil store: EventStoreDB ${withoutCredentials(config.eventStoreUrl)}, MongoDB ${withoutCredentials(config.mongodbUrl ?? '')}`
    : `Vigil store: embedded SQLite ${config.sqliteFile}`;
}

/** The command would create an empty database beside the real one. */
export class MissingStoreError extends Error {}

export function requireStore(config: VigilConfig, command: string): void {
  if (config.eventStoreUrl || CREATING.has(command) || existsSync(config.sqliteFile)) return;
  throw new MissingStoreError(
    `No Vigil database at ${config.sqliteFile}; nothing was created. ` +
    `Set VIGIL_DATA_DIR to the server's data directory (default ./data, relative to where you run this), or run \`accounts create\` to start a new one.`,
  );
}
