import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { fold } from '../../../core/src/decider';
import { IncidentCommand, incidentDecider, IncidentEvent, MAX_UPDATES_PER_INCIDENT, NewUpdate } from './incident.decider';

const ACCOUNT = 'account-1';
const OTHER = 'account-2';
const INCIDENT = 'incident-1';
const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T11:00:00.000Z';
const T2 = '2026-03-01T12:00:00.000Z';

const update = (id: string, patch: Partial<NewUpdate> = {}): NewUpdate => ({
  id,
  description: `about ${id}`,
  status: null,
  publicIncidentUpdateDate: T0,
  notifySubscribers: false,
  ...patch,
});

const created: IncidentEvent = {
  type: 'IncidentCreated',
  data: { incidentId: INCIDENT, accountId: ACCOUNT, name: 'API down', severity: 'MAJOR', serviceIds: ['s1', 's2'] },
};

const posted = (updateId: string, status: NewUpdate['status'] & string, date = T0, notifySubscribers = false): IncidentEvent => ({
  type: 'IncidentUpdatePosted',
  data: { incidentId: INCIDENT, updateId, description: `about ${updateId}`, status, publicIncidentUpdateDate: date, notifySubscribers },
});

/** given these past events, when this command, then these events (or that error). */
function given(events: IncidentEvent[]) {
  return {
    when(command: IncidentCommand) {
      const decide = () => incidentDecider.decide(command, fold(incidentDecider, events));
      return {
        then: (expected: IncidentEvent[]) => expect(decide()).toEqual(expected),
        thenThrows: (error: new (...args: never[]) => Error, message?: RegExp) => {
          expect(decide).toThrow(error);
          if (message) expect(decide).toThrow(message);
        },
      };
    },
  };
}

describe('incident decider', () => {
  describe('CreateIncident', () => {
    const create = (updates: NewUpdate[]): IncidentCommand => ({
      type: 'CreateIncident',
      id: INCIDENT,
      accountId: ACCOUNT,
      name: 'API down',
      severity: 'MAJOR',
      serviceIds: ['s1', 's2'],
      updates,
    });

    it('creates the incident and posts its first update as INVESTIGATING when no status is given', () => {
      given([])
        .when(create([update('u1', { notifySubscribers: true })]))
        .then([created, posted('u1', 'INVESTIGATING', T0, true)]);
    });

    it('backfills several updates in request order, each without status taking the status reached before it', () => {
      given([])
        .when(create([update('u1', { status: 'IDENTIFIED', publicIncidentUpdateDate: T0 }), update('u2', { publicIncidentUpdateDate: T1 }), update('u3', { status: 'RESOLVED', publicIncidentUpdateDate: T2 })]))
        .then([created, posted('u1', 'IDENTIFIED', T0), posted('u2', 'IDENTIFIED', T1), posted('u3', 'RESOLVED', T2)]);
    });

    it('takes the default status from the chronologically latest earlier update, not the previous one in the request', () => {
      given([])
        .when(create([update('u1', { status: 'MONITORING', publicIncidentUpdateDate: T2 }), update('u2', { status: 'IDENTIFIED', publicIncidentUpdateDate: T0 }), update('u3', { publicIncidentUpdateDate: T1 })]))
        .then([created, posted('u1', 'MONITORING', T2), posted('u2', 'IDENTIFIED', T0), posted('u3', 'MONITORING', T1)]);
    });

    it('refuses to create an incident twice', () => {
      given([created, posted('u1', 'INVESTIGATING')]).when(create([update('u9')])).thenThrows(ConflictError);
    });
  });

  describe('ChangeIncident (PUT and PATCH)', () => {
    const history = [created, posted('u1', 'INVESTIGATING')];

    it('records only the fields that change', () => {
      given(history)
        .when({ type: 'ChangeIncident', id: INCIDENT, accountId: ACCOUNT, name: 'API down', severity: 'CRITICAL', serviceIds: ['s1', 's2'] })
        .then([{ type: 'IncidentDetailsChanged', data: { incidentId: INCIDENT, severity: 'CRITICAL' } }]);
    });

    it('treats a new service order as a change (responses keep request order)', () => {
      given(history)
        .when({ type: 'ChangeIncident', id: INCIDENT, accountId: ACCOUNT, serviceIds: ['s2', 's1'] })
        .then([{ type: 'IncidentDetailsChanged', data: { incidentId: INCIDENT, serviceIds: ['s2', 's1'] } }]);
    });

    it('writes nothing when nothing changes', () => {
      given(history).when({ type: 'ChangeIncident', id: INCIDENT, accountId: ACCOUNT, name: 'API down' }).then([]);
    });

    it("refuses another account's, a missing and a deleted incident alike", () => {
      given(history).when({ type: 'ChangeIncident', id: INCIDENT, accountId: OTHER, name: 'x' }).thenThrows(NotFoundError);
      given([]).when({ type: 'ChangeIncident', id: INCIDENT, accountId: ACCOUNT, name: 'x' }).thenThrows(NotFoundError);
      given([...history, { type: 'IncidentDeleted', data: { incidentId: INCIDENT } }])
        .when({ type: 'ChangeIncident', id: INCIDENT, accountId: ACCOUNT, name: 'x' })
        .thenThrows(NotFoundError);
    });
  });

  describe('PostIncidentUpdate', () => {
    const post = (u: NewUpdate, accountId = ACCOUNT): IncidentCommand => ({ type: 'PostIncidentUpdate', id: INCIDENT, accountId, update: u });

    it("defaults the status to the incident's current lastUpdateStatus", () => {
      given([created, posted('u1', 'INVESTIGATING', T0), posted('u2', 'MONITORING', T1)])
        .when(post(update('u3', { publicIncidentUpdateDate: T2 })))
        .then([posted('u3', 'MONITORING', T2)]);
    });

    it('carries notifySubscribers so delivery can follow', () => {
      given([created, posted('u1', 'INVESTIGATING')])
        .when(post(update('u2', { status: 'RESOLVED', publicIncidentUpdateDate: T1, notifySubscribers: true })))
        .then([posted('u2', 'RESOLVED', T1, true)]);
    });

    it('re-opens a resolved incident with a later update', () => {
      const state = fold(incidentDecider, [created, posted('u1', 'RESOLVED', T0), posted('u2', 'INVESTIGATING', T1)]);
      expect(state.updates.map((u) => u.status)).toEqual(['RESOLVED', 'INVESTIGATING']);
    });

    it('refuses updates on missing, foreign and deleted incidents', () => {
      given([]).when(post(update('u1'))).thenThrows(NotFoundError);
      given([created]).when(post(update('u1'), OTHER)).thenThrows(NotFoundError);
      given([created, { type: 'IncidentDeleted', data: { incidentId: INCIDENT } }]).when(post(update('u1'))).thenThrows(NotFoundError);
    });

    it(`keeps at most ${MAX_UPDATES_PER_INCIDENT} updates`, () => {
      const many = Array.from({ length: MAX_UPDATES_PER_INCIDENT }, (_, i) => posted(`u${i}`, 'INVESTIGATING'));
      given([created, ...many]).when(post(update('one-more'))).thenThrows(ConflictError, /at most/);
    });
  });

  describe('EditIncidentUpdate', () => {
    const history = [created, posted('u1', 'INVESTIGATING', T0), posted('u2', 'IDENTIFIED', T1)];
    const edit = (patch: Partial<Extract<IncidentCommand, { type: 'EditIncidentUpdate' }>>): IncidentCommand => ({
      type: 'EditIncidentUpdate',
      id: INCIDENT,
      accountId: ACCOUNT,
      updateId: 'u1',
      description: 'about u1',
      status: null,
      publicIncidentUpdateDate: null,
      ...patch,
    });

    it('keeps the stored status and date when the edit leaves them out', () => {
      given(history)
        .when(edit({ description: 'reworded' }))
        .then([{ type: 'IncidentUpdateEdited', data: { incidentId: INCIDENT, updateId: 'u1', description: 'reworded', status: 'INVESTIGATING', publicIncidentUpdateDate: T0 } }]);
    });

    it('moves an update in the timeline when its date changes', () => {
      const events = [...history, { type: 'IncidentUpdateEdited', data: { incidentId: INCIDENT, updateId: 'u1', description: 'x', status: 'INVESTIGATING', publicIncidentUpdateDate: T2 } } as IncidentEvent];
      expect(fold(incidentDecider, events).updates.map((u) => u.id)).toEqual(['u2', 'u1']);
    });

    it('writes nothing when nothing changes', () => {
      given(history).when(edit({ status: 'INVESTIGATING', publicIncidentUpdateDate: T0 })).then([]);
    });

    it('is a 404 for an unknown update or a foreign incident', () => {
      given(history).when(edit({ updateId: 'nope' })).thenThrows(NotFoundError, /update/);
      given(history).when(edit({ accountId: OTHER })).thenThrows(NotFoundError);
    });
  });

  describe('DeleteIncidentUpdate', () => {
    it('deletes one of several updates', () => {
      given([created, posted('u1', 'INVESTIGATING'), posted('u2', 'IDENTIFIED', T1)])
        .when({ type: 'DeleteIncidentUpdate', id: INCIDENT, accountId: ACCOUNT, updateId: 'u2' })
        .then([{ type: 'IncidentUpdateDeleted', data: { incidentId: INCIDENT, updateId: 'u2' } }]);
    });

    it('refuses to delete the only update (409)', () => {
      given([created, posted('u1', 'INVESTIGATING')])
        .when({ type: 'DeleteIncidentUpdate', id: INCIDENT, accountId: ACCOUNT, updateId: 'u1' })
        .thenThrows(ConflictError, /only/);
    });

    it('is a 404 for an update deleted before', () => {
      given([created, posted('u1', 'INVESTIGATING'), posted('u2', 'IDENTIFIED', T1), { type: 'IncidentUpdateDeleted', data: { incidentId: INCIDENT, updateId: 'u2' } }])
        .when({ type: 'DeleteIncidentUpdate', id: INCIDENT, accountId: ACCOUNT, updateId: 'u2' })
        .thenThrows(NotFoundError);
    });
  });

  describe('DeleteIncident', () => {
    it('deletes once; afterwards the incident is gone', () => {
      const history = [created, posted('u1', 'INVESTIGATING')];
      given(history).when({ type: 'DeleteIncident', id: INCIDENT, accountId: ACCOUNT }).then([{ type: 'IncidentDeleted', data: { incidentId: INCIDENT } }]);
      given([...history, { type: 'IncidentDeleted', data: { incidentId: INCIDENT } }])
        .when({ type: 'DeleteIncident', id: INCIDENT, accountId: ACCOUNT })
        .thenThrows(NotFoundError);
    });

    it("refuses another account's incident", () => {
      given([created]).when({ type: 'DeleteIncident', id: INCIDENT, accountId: OTHER }).thenThrows(NotFoundError);
    });
  });

  describe('timeline order', () => {
    it('orders by publicIncidentUpdateDate and breaks ties by creation order', () => {
      const state = fold(incidentDecider, [created, posted('late', 'RESOLVED', T2), posted('tie-a', 'IDENTIFIED', T1), posted('early', 'INVESTIGATING', T0), posted('tie-b', 'MONITORING', T1)]);
      expect(state.updates.map((u) => u.id)).toEqual(['early', 'tie-a', 'tie-b', 'late']);
    });

    it('keeps creation order across deletions (a new update never takes an old one’s place in a tie)', () => {
      const state = fold(incidentDecider, [
        created,
        posted('a', 'INVESTIGATING', T0),
        posted('b', 'IDENTIFIED', T0),
        { type: 'IncidentUpdateDeleted', data: { incidentId: INCIDENT, updateId: 'a' } },
        posted('c', 'MONITORING', T0),
      ]);
      expect(state.updates.map((u) => [u.id, u.seq])).toEqual([
        ['b', 1],
        ['c', 2],
      ]);
    });
  });
});
