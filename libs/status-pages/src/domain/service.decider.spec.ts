import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { fold } from '../../../core/src/decider';
import { specFor } from '../../../testing/src/given-when-then';
import { serviceDecider, ServiceEvent, serviceStream } from './service.decider';

const ID = '01900000-0000-7000-8000-000000000051';
const ACCOUNT = '01900000-0000-7000-8000-000000000001';
const OTHER = '01900000-0000-7000-8000-000000000002';
const created: ServiceEvent = { type: 'ServiceCreated', data: { id: ID, accountId: ACCOUNT, name: 'API' } };
const renamed: ServiceEvent = { type: 'ServiceUpdated', data: { id: ID, name: 'Public API' } };
const deleted: ServiceEvent = { type: 'ServiceDeleted', data: { id: ID } };
const spec = specFor(serviceDecider);

describe('service decider', () => {
  describe('CreateService', () => {
    it('given nothing, then ServiceCreated', () => {
      spec.given([]).when({ type: 'CreateService', id: ID, accountId: ACCOUNT, name: 'API' }).then([created]);
    });

    it('given an existing service, then a conflict', () => {
      spec.given([created]).when({ type: 'CreateService', id: ID, accountId: ACCOUNT, name: 'API' }).thenThrows(ConflictError);
    });

    it('given a deleted service, then a conflict (ids are never reused)', () => {
      spec.given([created, deleted]).when({ type: 'CreateService', id: ID, accountId: ACCOUNT, name: 'API' }).thenThrows(ConflictError);
    });
  });

  describe('UpdateService', () => {
    it('given a service, when renamed, then ServiceUpdated', () => {
      spec.given([created]).when({ type: 'UpdateService', id: ID, accountId: ACCOUNT, name: 'Public API' }).then([renamed]);
    });

    it('given a service, when given the name it has, then nothing', () => {
      spec.given([created, renamed]).when({ type: 'UpdateService', id: ID, accountId: ACCOUNT, name: 'Public API' }).then([]);
    });

    it('given nothing, then not found', () => {
      spec.given([]).when({ type: 'UpdateService', id: ID, accountId: ACCOUNT, name: 'x' }).thenThrows(NotFoundError);
    });

    it('given a deleted service, then not found', () => {
      spec.given([created, deleted]).when({ type: 'UpdateService', id: ID, accountId: ACCOUNT, name: 'x' }).thenThrows(NotFoundError);
    });

    it("given another account's service, then not found (never revealed)", () => {
      spec.given([created]).when({ type: 'UpdateService', id: ID, accountId: OTHER, name: 'x' }).thenThrows(NotFoundError);
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
    expect(serviceDecider.initialState()).toEqual({ status: 'absent', accountId: null, name: null });
    expect(fold(serviceDecider, [created])).toEqual({ status: 'active', accountId: ACCOUNT, name: 'API' });
    expect(fold(serviceDecider, [created, renamed])).toEqual({ status: 'active', accountId: ACCOUNT, name: 'Public API' });
    expect(fold(serviceDecider, [created, renamed, deleted])).toEqual({ status: 'deleted', accountId: ACCOUNT, name: 'Public API' });
  });

  it('names its stream service-<id>', () => {
    expect(serviceStream(ID)).toBe(`service-${ID}`);
  });
});
