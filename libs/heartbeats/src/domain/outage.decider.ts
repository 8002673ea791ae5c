import { Decider } from '../../../core/src/decider';

export type OutageEvent =
  | { type: 'HeartbeatOutageClaimed'; data: { checkId: string } }
  | { type: 'HeartbeatOutageIncidentOpened'; data: { incidentId: string } }
  | { type: 'HeartbeatOutageResolved'; data: Record<string, never> };

export type OutageCommand = { type: 'Claim'; checkId: string } | { type: 'RecordIncident'; incidentId: string } | { type: 'Resolve' };

export interface OutageState {
  claimed: boolean;
  incidentId: string | null;
  resolved: boolean;
}

/**
 * One outage's incident (`heartbeat-outage-<key>`): claimed once, its incident recorded once, resolved
 * once, so a redelivered or concurrent trigger opens (or resolves) one incident, not two.
 */
export const outageDecider: Decider<OutageState, OutageCommand, OutageEvent> = {
  initialState: () => ({ claimed: false, incidentId: null, resolved: false }),
  evolve(state, event) {
    switch (event.type) {
      case 'HeartbeatOutageClaimed':
        return { ...state, claimed: true };
      case 'HeartbeatOutageIncidentOpened':
        return { ...state, incidentId: event.data.incidentId };
      case 'HeartbeatOutageResolved':
        return { ...state, resolved: true };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'Claim':
        return state.claimed ? [] : [{ type: 'HeartbeatOutageClaimed', data: { checkId: command.checkId } }];
      case 'RecordIncident':
        return state.incidentId ? [] : [{ type: 'HeartbeatOutageIncidentOpened', data: { incidentId: command.incidentId } }];
      case 'Resolve':
        return !state.incidentId || state.resolved ? [] : [{ type: 'HeartbeatOutageResolved', data: {} }];
    }
  },
};

export const outageStream = (outageKey: string) => `heartbeat-outage-${outageKey}`;
