import { Decider } from '../../../core/src/decider';

/**
 * The rollups of one check's day, kept as an event before the day's raw heartbeat events are pruned, in a
 * stream of their own that retention never prunes: a rebuild of the rollups from the pruned log gets that
 * day back from here. `docs`: the day's rollup documents (the day and its hours) as they were.
 */
export interface RollupsKept {
  type: 'HeartbeatRollupsKept';
  data: { checkId: string; day: string; docs: KeptRollup[] };
}

/** A rollup document as kept: what the heartbeat_rollups projection writes back on a rebuild. */
export interface KeptRollup {
  id: string;
  [field: string]: unknown;
}

export type KeepRollups = { type: 'KeepRollups'; checkId: string; day: string; docs: KeptRollup[] };

export const ROLLUPS_KEPT = 'HeartbeatRollupsKept';

/** `heartbeatrollups-<checkId>-<day start in ms>`: one stream per check and day, written once. */
export const rollupHistoryStream = (checkId: string, dayMs: number) => `heartbeatrollups-${checkId}-${dayMs}`;

export const rollupHistoryDecider: Decider<boolean, KeepRollups, RollupsKept> = {
  initialState: () => false,
  // Kept once: a second retention run over the same day decides nothing.
  decide: (command, kept) => (kept ? [] : [{ type: ROLLUPS_KEPT, data: { checkId: command.checkId, day: command.day, docs: command.docs } }]),
  evolve: () => true,
};
