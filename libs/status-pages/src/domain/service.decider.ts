import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError } from '../../../core/src/errors';

export type ServiceEvent =
  | { type: 'ServiceCreated'; data: { id: string; accountId: string; name: string } }
  | { type: 'ServiceUpdated'; data: { id: string; name: string } }
  | { type: 'ServiceDeleted'; data: { id: string } };

export type ServiceCommand =
  | { type: 'CreateService'; id: string; accountId: string; name: string }
  | { type: 'UpdateService'; id: string; accountId: string; name: string }
  | { type: 'DeleteService'; id: string; accountId: string; usedBy: string | null };

export interface ServiceState {
  status: 'absent' | 'active' | 'deleted';
  accountId: string | null;
  name: string | null;
}

function requireOwned(state: ServiceState, accountId: string): void {
  // Another account's service is indistinguishable from a missing one.
  if (state.status !== 'active' || state.accountId !== accountId) throw new NotFoundError('Service not found');
}

export const serviceDecider: Decider<ServiceState, ServiceCommand, ServiceEvent> = {
  initialState: () => ({ status: 'absent', accountId: null, name: null }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateService':
        if (state.status !== 'absent') throw new ConflictError('Service already exists');
        return [{ type: 'ServiceCreated', data: { id: command.id, accountId: command.accountId, name: command.name } }];
      case 'UpdateService':
        requireOwned(state, command.accountId);
        return state.name === command.name ? [] : [{ type: 'ServiceUpdated', data: { id: command.id, name: command.name } }];
      case 'DeleteService':
        requireOwned(state, command.accountId);
        if (command.usedBy) throw new ConflictError(`Service is still used by ${command.usedBy}`);
        return [{ type: 'ServiceDeleted', data: { id: command.id } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ServiceCreated':
        return { status: 'active', accountId: event.data.accountId, name: event.data.name };
      case 'ServiceUpdated':
        return { ...state, name: event.data.name };
      case 'ServiceDeleted':
        return { ...state, status: 'deleted' };
      default:
        return state;
    }
  },
};

export const serviceStream = (id: string) => `service-${id}`;
