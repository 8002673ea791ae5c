import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { fold } from '../../../core/src/decider';
import { asDecided, EventOf, handledEvent, RecordedEvent } from '../../../core/src/event';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { ContextQuery } from '../../../read-store/src/context-query';
import { PageAfter } from '../../../read-store/src/read-store.port';
import { incidentDecider, IncidentEvent, IncidentState, incidentStream } from '../domain/incident.decider';
import { IncidentDirectory, IncidentListFilter, IncidentUpdateView, IncidentView, presentUpdate } from './incident-directory';
import { IncidentTemplateDirectory, IncidentTemplateView } from './incident-template-directory';

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

/** The questions the incidents read side answers; every one is scoped to an account (null: the operator's CLI). */
export type IncidentsQuestion =
  | { type: 'GetIncident'; accountId: string; id: string }
  /** The incident as it stood at `at`, services as they are now. */
  | { type: 'GetIncidentAsOf'; accountId: string; id: string; at: Date }
  | { type: 'GetIncidentUpdates'; accountId: string; id: string }
  /** One page, newest first by the incident's date, one row more than `limit`. */
  | { type: 'ListIncidents'; accountId: string; limit: number; after?: PageAfter; filter?: IncidentListFilter }
  /** Open incidents touching the services, and those resolved at or after `since` (a status page's). */
  | { type: 'IncidentsTouching'; accountId: string; serviceIds: string[]; since: Date }
  /** Every event of the incident; `includeDeleted` lets a deleted incident's trail be read. */
  | { type: 'GetIncidentHistory'; accountId: string | null; id: string; includeDeleted: boolean }
  /** The incident folded from its log (not a read model): what a processor reacting to one of its events needs. */
  | { type: 'FoldIncident'; id: string }
  | { type: 'GetIncidentTemplate'; accountId: string; id: string }
  /** One page, newest first, one row more than `limit`. */
  | { type: 'ListIncidentTemplates'; accountId: string; limit: number; after?: PageAfter };

export interface IncidentsAnswers {
  GetIncident: { incident: IncidentView; revision: bigint } | null;
  GetIncidentAsOf: { incident: IncidentView; revision: bigint } | null;
  GetIncidentUpdates: { updates: IncidentUpdateView[]; revision: bigint } | null;
  ListIncidents: IncidentView[];
  IncidentsTouching: IncidentView[];
  GetIncidentHistory: IncidentHistory | null;
  FoldIncident: { state: IncidentState; events: RecordedEvent[] };
  GetIncidentTemplate: { template: IncidentTemplateView; revision: bigint } | null;
  ListIncidentTemplates: IncidentTemplateView[];
}

export class IncidentsQuery<T extends IncidentsQuestion['type']> extends ContextQuery<IncidentsQuestion, IncidentsAnswers, T> {}

@QueryHandler(IncidentsQuery)
export class IncidentsQueryHandler implements IQueryHandler<IncidentsQuery<IncidentsQuestion['type']>> {
  constructor(
    private readonly incidents: IncidentDirectory,
    private readonly templates: IncidentTemplateDirectory,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ query }: IncidentsQuery<IncidentsQuestion['type']>): Promise<IncidentsAnswers[IncidentsQuestion['type']]> {
    switch (query.type) {
      case 'GetIncident':
        return this.incidents.get(query.accountId, query.id);
      case 'GetIncidentAsOf':
        return this.incidents.getAsOf(query.accountId, query.id, query.at);
      case 'GetIncidentUpdates': {
        const found = await this.incidents.getDoc(query.accountId, query.id);
        return found && { updates: found.doc.incidentUpdates.map(presentUpdate), revision: found.revision };
      }
      case 'ListIncidents':
        return this.incidents.list(query.accountId, query.limit, query.after, query.filter);
      case 'IncidentsTouching':
        return this.incidents.touching(query.accountId, query.serviceIds, query.since);
      case 'GetIncidentHistory':
        return this.history(query.id, query.accountId, query.includeDeleted);
      case 'FoldIncident': {
        const events = await this.events.readStream(incidentStream(query.id));
        return { state: fold(incidentDecider, events.map((event) => asDecided<IncidentEvent>(event))), events };
      }
      case 'GetIncidentTemplate':
        return this.templates.get(query.accountId, query.id);
      case 'ListIncidentTemplates':
        return this.templates.list(query.accountId, query.limit, query.after);
    }
  }

  private async history(incidentId: string, accountId: string | null, includeDeleted: boolean): Promise<IncidentHistory | null> {
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
