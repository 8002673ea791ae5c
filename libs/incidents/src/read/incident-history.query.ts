import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EventOf, handledEvent } from '../../../core/src/event';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { IncidentEvent, incidentStream } from '../domain/incident.decider';

/**
 * The audit trail of one incident, read from its stream. `accountId` null (the admin CLI) reads any
 * account's; `includeDeleted` lets a deleted incident's trail be read.
 */
export class GetIncidentHistoryQuery {
  constructor(
    readonly incidentId: string,
    readonly accountId: string | null,
    readonly includeDeleted: boolean,
  ) {}
}

export interface IncidentHistoryEntry {
  revision: number;
  type: string;
  occurredAt: string;
  actor: { keyId: string | null; keyName: string | null };
  /** The event's data as stored (JSON). */
  data: object;
}

export interface IncidentHistory {
  entries: IncidentHistoryEntry[];
  /** Revision of the last event: the incident's ETag. */
  revision: bigint;
  deleted: boolean;
}

@QueryHandler(GetIncidentHistoryQuery)
export class GetIncidentHistoryHandler implements IQueryHandler<GetIncidentHistoryQuery, IncidentHistory | null> {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async execute({ incidentId, accountId, includeDeleted }: GetIncidentHistoryQuery): Promise<IncidentHistory | null> {
    const events = await this.events.readStream(incidentStream(incidentId));
    const created = events.length > 0 ? handledEvent<EventOf<IncidentEvent, 'IncidentCreated'>>(['IncidentCreated'], events[0]) : null;
    if (!created) return null;
    if (accountId !== null && created.data.accountId !== accountId) return null;
    const deleted = events.some((e) => e.type === 'IncidentDeleted');
    if (deleted && !includeDeleted) return null;
    return {
      entries: events.map((event) => ({
        revision: Number(event.revision),
        type: event.type,
        occurredAt: event.metadata.occurredAt,
        actor: { keyId: event.metadata.keyId ?? null, keyName: event.metadata.keyName ?? null },
        data: event.data,
      })),
      revision: events[events.length - 1].revision,
      deleted,
    };
  }
}
