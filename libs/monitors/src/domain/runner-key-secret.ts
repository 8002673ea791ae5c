import { createHash, randomBytes } from 'node:crypto';
import { RunnerKeyCommand, RunnerKeyData } from './runner-key.decider';

/** A location name as runners and monitors give it: lowercase letters, digits and dashes, as Checkly's regions. */
export const LOCATION_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

export function hashRunnerKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The command creating a runner key, and the key (`vgr_` and 256 random bits) to show once. */
export function newRunnerKey(fields: Omit<RunnerKeyData, 'hash' | 'prefix'>): { command: Extract<RunnerKeyCommand, { type: 'CreateRunnerKey' }>; runnerKey: string } {
  const runnerKey = `vgr_${randomBytes(32).toString('base64url')}`;
  return { command: { type: 'CreateRunnerKey', key: { ...fields, hash: hashRunnerKey(runnerKey), prefix: runnerKey.slice(0, 8) } }, runnerKey };
}
