import { Decider } from '../../../core/src/decider';

/** Where a monitor's rollups of pruned days are kept for good: apart from its runs, so pruning never reaches them. */
export const rollupHistoryStream = (monitorId: string): string => `monitorhistory-${monitorId}`;

/** One hourly or daily bucket's totals, as the rollups read model holds them. */
export interface KeptBucket {
  granularity: 'h' | 'd';
  bucketAt: string;
  runs: number;
  failed: number;
  degraded: number;
  sumMs: number;
  histogram: number[];
}

export type RollupHistoryCommand = { type: 'KeepMonitorRollups'; monitorId: string; day: string; buckets: KeptBucket[] };
export type RollupHistoryEvent = { type: 'MonitorRollupsKept'; data: { monitorId: string; day: string; buckets: KeptBucket[] } };

/** The newest day kept; days are kept in order, each once, before their runs are pruned. */
export const rollupHistoryDecider: Decider<{ lastDay: string | null }, RollupHistoryCommand, RollupHistoryEvent> = {
  initialState: () => ({ lastDay: null }),
  decide(command, state) {
    if (state.lastDay !== null && command.day <= state.lastDay) return [];
    return [{ type: 'MonitorRollupsKept', data: { monitorId: command.monitorId, day: command.day, buckets: command.buckets } }];
  },
  evolve: (_state, event) => ({ lastDay: event.data.day }),
};
