/** Events of `heartbeat-outage-<key>`, where outages opened before incident ids derived from the outage key recorded theirs. */
export type LegacyOutageEvent =
  | { type: 'HeartbeatOutageClaimed'; data: { checkId: string } }
  | { type: 'HeartbeatOutageIncidentOpened'; data: { incidentId: string } }
  | { type: 'HeartbeatOutageResolved'; data: Record<string, never> };

/** Read only, to resolve such an outage's incident: the incident it recorded, if any. */
export const legacyOutage = {
  initialState: (): { incidentId: string | null } => ({ incidentId: null }),
  evolve: (state: { incidentId: string | null }, event: LegacyOutageEvent) => (event.type === 'HeartbeatOutageIncidentOpened' ? { incidentId: event.data.incidentId } : state),
};

export const legacyOutageStream = (outageKey: string) => `heartbeat-outage-${outageKey}`;
