import { Decider } from '../../../core/src/decider';

/** A runner location of one account: whether any of its runners reports. */
export const locationStream = (accountId: string, location: string): string => `location-${accountId}-${location}`;

export type LocationCommand = { type: 'ObserveLocation'; accountId: string; location: string; activeRunners: number; at: string };

export type LocationEvent =
  | { type: 'LocationRunnersLost'; data: { accountId: string; location: string; at: string } }
  /** A first runner reports, or one reports again after the location was lost (`downtimeMs`). */
  | { type: 'LocationRunnersReporting'; data: { accountId: string; location: string; at: string; downtimeMs: number | null } };

export interface LocationState {
  /** Null until a first runner reported. */
  up: boolean | null;
  lostAt: string | null;
}

/** Reporting when a runner reports while the location was new or lost; lost when the last active runner stops: each change once. */
export const locationDecider: Decider<LocationState, LocationCommand, LocationEvent> = {
  initialState: () => ({ up: null, lostAt: null }),
  decide(command, state) {
    const { accountId, location, at } = command;
    if (command.activeRunners > 0 && state.up !== true) {
      const downtimeMs = state.lostAt === null ? null : Math.max(0, Date.parse(at) - Date.parse(state.lostAt));
      return [{ type: 'LocationRunnersReporting', data: { accountId, location, at, downtimeMs } }];
    }
    if (command.activeRunners === 0 && state.up === true) return [{ type: 'LocationRunnersLost', data: { accountId, location, at } }];
    return [];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'LocationRunnersLost':
        return { up: false, lostAt: event.data.at };
      case 'LocationRunnersReporting':
        return { up: true, lostAt: null };
    }
  },
};
