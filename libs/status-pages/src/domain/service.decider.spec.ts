import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { fold } from '../../../core/src/decider';
import { specFor } from '../../../testing/src/given-when-then';
import { serviceDecider, ServiceEvent, serviceStream } from './service.decider';

const ID = '01900000-0000-7000-8000-000000000051';
const ACCOUNT = '01900000-0000-7000-8000-000000000001';
const OTHER = '01900000-0000-7000-8000-000000000002';
const created: ServiceEvent = { type: 'ServiceCreated', data: { id: ID, accountId: ACCOUNT, name: 'API', description: null } };
const renamed: ServiceEvent = { type: 'ServiceUpdated', data: { id: ID, name: 'Public API', description: null } };
const deleted: ServiceEvent = { type: 'ServiceDeleted', data: { id: ID } };
const spec = specFor(serviceDecider);

describe('service decider', () => {
  describe('CreateService', () => {
    it('given nothing, then ServiceCreated', () => {
      spec.given([]).when({ type: 'CreateService', id: ID, accountId: ACCOUNT, name: 'API', description: null }).then([created]);
    });

    it('given an existing service, then a conflict', () => {
      spec.given([created]).when({ type: 'CreateService', id: ID, accountId: ACCOUNT, name: 'API', description: null }).thenThrows(ConflictError);
    });

    it('given a deleted service, then a conflict (ids are never reused)', () => {
      spec.given([created, deleted]).when({ type: 'CreateService', id: ID, accountId: ACCOUNT, name: 'API', description: null }).thenThrows(ConflictError);
    });
  });

  describe('UpdateService', () => {
    it('given a service, when renamed, then ServiceUpdated', () => {
      spec.given([created]).when({ type: 'UpdateService', id: ID, accountId: ACCOUNT, name: 'Public API', description: null }).then([renamed]);
    });

    it('given a service, when given the name it has, then nothing', () => {
      spec.given([created, renamed]).when({ type: 'UpdateService', id: ID, accountId: ACCOUNT, name: 'Public API', description: null }).then([]);
    });

    it('given nothing, then not found', () => {
      spec.given([]).when({ type: 'UpdateService', id: ID, accountId: ACCOUNT, name: 'x', description: null }).thenThrows(NotFoundError);
    });

    it('given a deleted service, then not found', () => {
      spec.given([created, deleted]).when({ type: 'UpdateService', id: ID, accountId: ACCOUNT, name: 'x', description: null }).thenThrows(NotFoundError);
    });

    it("given another account's service, then not found (never revealed)", () => {
      spec.given([created]).when({ type: 'UpdateService', id: ID, accountId: OTHER, name: 'x', description: null }).thenThrows(NotFoundError);
    });

    it('given a new description, then ServiceUpdated carrying it; the same again changes nothing', () => {
      const described: ServiceEvent = { type: 'ServiceUpdated', data: { id: ID, name: 'API', description: 'REST and webhooks' } };
      spec.given([created]).when({ type: 'UpdateService', id: ID, accountId: ACCOUNT, name: 'API', description: 'REST and webhooks' }).then([described]);
      spec.given([created, described]).when({ type: 'UpdateService', id: ID, accountId: ACCOUNT, name: 'API', description: 'REST and webhooks' }).then([]);
    });

    it('folds events written before services had a description as having none', () => {
      const old = { type: 'ServiceCreated', data: { id: ID, accountId: ACCOUNT, name: 'API' } } as ServiceEvent;
      expect(fold(serviceDecider, [old]).description).toBeNull();
    });
  });

  describe('DeleteService', () => {
    it('given an unused service, then ServiceDeleted', () => {
      spec.given([created, renamed]).when({ type: 'DeleteService', id: ID, accountId: ACCOUNT, usedBy: null }).then([deleted]);
    });

    it('given a service still in use, then a conflict naming the user', () => {
      spec
        .given([created])
        .when({ type: 'DeleteService', id: ID, accountId: ACCOUNT, usedBy: 'status page "Main"' })
        .thenThrows(ConflictError, /status page "Main"/);
    });

    it('given a deleted service, then not found', () => {
      spec.given([created, deleted]).when({ type: 'DeleteService', id: ID, accountId: ACCOUNT, usedBy: null }).thenThrows(NotFoundError);
    });

    it("given another account's service, then not found, even when it is in use", () => {
      spec.given([created]).when({ type: 'DeleteService', id: ID, accountId: OTHER, usedBy: 'x' }).thenThrows(NotFoundError);
    });
  });

  it('evolves through created, renamed and deleted', () => {
    expect(serviceDecider.initialState()).toEqual({ status: 'absent', accountId: null, name: null, description: null });
    expect(fold(serviceDecider, [created])).toEqual({ status: 'active', accountId: ACCOUNT, name: 'API', description: null });
    expect(fold(serviceDecider, [created, renamed])).toEqual({ status: 'active', accountId: ACCOUNT, name: 'Public API', description: null });
    expect(fold(serviceDecider, [created, renamed, deleted])).toEqual({ status: 'deleted', accountId: ACCOUNT, name: 'Public API', description: null });
  });

  it('names its stream service-<id>', () => {
    expect(serviceStream(ID)).toBe(`service-${ID}`);
  });
});
