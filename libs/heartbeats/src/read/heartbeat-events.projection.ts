import { Projection } from '../../../core/src/projection';
import { HeartbeatEvent, HeartbeatState } from '../domain/heartbeat-timer';
import { eventDocId, eventTime, onceForLastEvent } from './heartbeat-keys';

export interface HeartbeatEventDoc {
  id: string;
  eventId: string;
  checkId: string;
  state: HeartbeatState;
  timestamp: string;
  source: string | null;
  userAgent: string | null;
  [field: string]: unknown;
}

function toDoc(event: HeartbeatEvent): HeartbeatEventDoc | null {
  switch (event.type) {
    case 'HeartbeatPingReceived': {
      const d = event.data;
      const at = eventTime(event)!;
      return { id: eventDocId(d.checkId, false, at, d.eventId, d.at), eventId: d.eventId, checkId: d.checkId, state: d.state, timestamp: d.at, source: d.source, userAgent: d.userAgent };
    }
    case 'HeartbeatFailed': {
      const d = event.data;
      const at = eventTime(event)!;
      return { id: eventDocId(d.checkId, true, at, d.eventId, d.deadline), eventId: d.eventId, checkId: d.checkId, state: 'FAILING', timestamp: d.deadline, source: 'watchdog', userAgent: null };
    }
    default:
      return null;
  }
}

const docOf = onceForLastEvent(toDoc);

/** Raw pings and failures, one document each, until retention removes them. */
export const heartbeatEventsProjection: Projection<HeartbeatEventDoc> = {
  name: 'heartbeat_events',
  version: 1,
  handles: ['HeartbeatPingReceived', 'HeartbeatFailed'],
  indexes: [],
  ids: (event) => {
    const doc = docOf(event as unknown as HeartbeatEvent);
    return doc ? [doc.id] : [];
  },
  // An event document never changes once written.
  evolve: (doc, event) => doc ?? docOf(event as unknown as HeartbeatEvent),
};
