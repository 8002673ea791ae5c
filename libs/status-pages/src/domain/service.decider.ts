import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError } from '../../../core/src/errors';

export type ServiceEvent =
  /** `description` is absent in events written before services had one. */
  | { type: 'ServiceCreated'; data: { id: string; accountId: string; name: string; description?: string | null } }
  | { type: 'ServiceUpdated'; data: { id: string; name: string; description?: string | null } }
  | { type: 'ServiceDeleted'; data: { id: string } };

export type ServiceCommand =
  | { type: 'CreateService'; id: string; accountId: string; name: string; description: string | null }
  | { type: 'UpdateService'; id: string; accountId: string; name: string; description: string | null }
  | { type: 'DeleteService'; id: string; accountId: string; usedBy: string | null };

export interface ServiceState {
  status: 'absent' | 'active' | 'deleted';
  accountId: string | null;
  name: string | null;
  description: string | null;
}

function requireOwned(state: ServiceState, accountId: string): void {
  // Another account's service is indistinguishable from a missing one.
  if (state.status !== 'active' || state.accountId !== accountId) throw new NotFoundError('Service not found');
}

export const serviceDecider: Decider<ServiceState, ServiceCommand, ServiceEvent> = {
  initialState: () => ({ status: 'absent', accountId: null, name: null, description: null }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateService':
        if (state.status !== 'absent') throw new ConflictError('Service already exists');
        return [{ type: 'ServiceCreated', data: { id: command.id, accountId: command.accountId, name: command.name, description: command.description } }];
      case 'UpdateService':
        requireOwned(state, command.accountId);
        if (state.name === command.name && state.description === command.description) return [];
        return [{ type: 'ServiceUpdated', data: { id: command.id, name: command.name, description: command.description } }];
      case 'DeleteService':
        requireOwned(state, command.accountId);
        if (command.usedBy) throw new ConflictError(`Service is still used by ${command.usedBy}`);
        return [{ type: 'ServiceDeleted', data: { id: command.id } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ServiceCreated':
        return { status: 'active', accountId: event.data.accountId, name: event.data.name, description: event.data.description ?? null };
      case 'ServiceUpdated':
        return { ...state, name: event.data.name, description: event.data.description ?? null };
      case 'ServiceDeleted':
        return { ...state, status: 'deleted' };
      default:
        return state;
    }
  },
};

export const serviceStream = (id: string) => `service-${id}`;
