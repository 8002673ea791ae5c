import { Projection } from '../../../core/src/projection';
import { CheckConfig, HeartbeatCheckEvent } from '../domain/heartbeat-check.decider';

export interface CheckDoc extends CheckConfig {
  id: string;
  accountId: string;
  pingToken: string;
  /** The service whose incidents this check opens, for a service's `checks`. */
  serviceId: string | null;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

function withConfig(base: Pick<CheckDoc, 'id' | 'accountId' | 'created_at'>, config: CheckConfig, at: string): CheckDoc {
  return {
    ...base,
    ...config,
    pingToken: config.heartbeat.pingToken,
    serviceId: config.triggerIncident?.serviceId ?? null,
    updated_at: at,
  };
}

/** The check configuration, as the check API shows it. */
export const heartbeatChecksProjection: Projection<CheckDoc, HeartbeatCheckEvent> = {
  name: 'heartbeat_checks',
  version: 1,
  handles: ['HeartbeatCheckCreated', 'HeartbeatCheckUpdated', 'HeartbeatCheckDeleted'],
  // slug: resolving /ping/{pingKey}/{slug} asks for (accountId, slug); no doc before slugs existed has one.
  indexes: [{ field: 'accountId' }, { field: 'pingToken' }, { field: 'serviceId' }, { field: 'slug' }],
  sortField: 'created_at',
  ids: (event) => [event.data.id],
  evolve(doc, e) {
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'HeartbeatCheckCreated':
        return withConfig({ id: e.data.id, accountId: e.data.accountId, created_at: at }, e.data.config, at);
      case 'HeartbeatCheckUpdated':
        return doc && withConfig(doc, e.data.config, at);
      case 'HeartbeatCheckDeleted':
        return null;
      default:
        return doc;
    }
  },
};
