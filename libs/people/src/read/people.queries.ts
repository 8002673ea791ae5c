import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Collection, ReadModelDoc } from '../../../core/src/projection';
import { ContextQuery } from '../../../read-store/src/context-query';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { Filter, READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import {
  InvitationDoc,
  invitationsProjection,
  MemberDoc,
  membersProjection,
  PasskeyDoc,
  passkeysProjection,
  SessionDoc,
  sessionsProjection,
  SignInLinkDoc,
  signInLinksProjection,
  UserDoc,
  usersProjection,
} from './people.projections';

/** Lists are for people, not machines: an account or a person has far fewer than this. */
const LIST_LIMIT = 1000;

export type PeopleQuestion =
  | { type: 'UserByEmail'; email: string }
  | { type: 'UserById'; userId: string }
  | { type: 'MembersOfAccount'; accountId: string }
  | { type: 'MembershipsOfUser'; userId: string }
  | { type: 'InvitationsOfAccount'; accountId: string }
  | { type: 'InvitationByHash'; hash: string }
  | { type: 'InvitationsByEmail'; email: string }
  | { type: 'SignInLinkByHash'; hash: string }
  | { type: 'SessionByHash'; hash: string }
  | { type: 'SessionsOfUser'; userId: string }
  | { type: 'PasskeyById'; credentialId: string }
  | { type: 'PasskeysOfUser'; userId: string };

/** Documents as shown to people: without the hashes of their secrets. */
export type SessionView = Pick<SessionDoc, 'id' | 'userId' | 'method' | 'startedAt' | 'expiresAt' | 'idleExpiresAt' | 'lastSeenAt' | 'userAgent'>;
export type InvitationView = Pick<InvitationDoc, 'id' | 'accountId' | 'email' | 'role' | 'expiresAt' | 'created_at'>;

export interface PeopleAnswers {
  UserByEmail: UserDoc | null;
  UserById: UserDoc | null;
  MembersOfAccount: MemberDoc[];
  MembershipsOfUser: MemberDoc[];
  InvitationsOfAccount: InvitationView[];
  InvitationByHash: InvitationDoc | null;
  InvitationsByEmail: InvitationDoc[];
  SignInLinkByHash: SignInLinkDoc | null;
  SessionByHash: SessionDoc | null;
  SessionsOfUser: SessionView[];
  PasskeyById: PasskeyDoc | null;
  PasskeysOfUser: PasskeyDoc[];
}

export class PeopleQuery<T extends PeopleQuestion['type']> extends ContextQuery<PeopleQuestion, PeopleAnswers, T> {}

const sessionView = ({ id, userId, method, startedAt, expiresAt, idleExpiresAt, lastSeenAt, userAgent }: SessionDoc): SessionView => ({
  id,
  userId,
  method,
  startedAt,
  expiresAt,
  idleExpiresAt,
  lastSeenAt,
  userAgent,
});
const invitationView = ({ id, accountId, email, role, expiresAt, created_at }: InvitationDoc): InvitationView => ({ id, accountId, email, role, expiresAt, created_at });

@QueryHandler(PeopleQuery)
export class PeopleQueryHandler implements IQueryHandler<PeopleQuery<PeopleQuestion['type']>> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
  ) {}

  async execute({ query }: PeopleQuery<PeopleQuestion['type']>): Promise<PeopleAnswers[PeopleQuestion['type']]> {
    switch (query.type) {
      case 'UserByEmail':
        return this.one(this.engine.collection(usersProjection), [{ field: 'email', op: 'eq', value: query.email }]);
      case 'UserById':
        return (await this.store.get(this.engine.collection(usersProjection), query.userId))?.doc ?? null;
      case 'MembersOfAccount':
        return this.list(this.engine.collection(membersProjection), [{ field: 'accountId', op: 'eq', value: query.accountId }], 'email');
      case 'MembershipsOfUser':
        return this.list(this.engine.collection(membersProjection), [{ field: 'userId', op: 'eq', value: query.userId }], 'email');
      case 'InvitationsOfAccount': {
        const docs = await this.list(this.engine.collection(invitationsProjection), [{ field: 'accountId', op: 'eq', value: query.accountId }], 'created_at');
        return docs.map(invitationView);
      }
      case 'InvitationByHash':
        return this.one(this.engine.collection(invitationsProjection), [{ field: 'hash', op: 'eq', value: query.hash }]);
      case 'InvitationsByEmail':
        return this.list(this.engine.collection(invitationsProjection), [{ field: 'email', op: 'eq', value: query.email }], 'created_at');
      case 'SignInLinkByHash':
        return this.one(this.engine.collection(signInLinksProjection), [{ field: 'hash', op: 'eq', value: query.hash }]);
      case 'SessionByHash':
        return this.one(this.engine.collection(sessionsProjection), [{ field: 'hash', op: 'eq', value: query.hash }]);
      case 'SessionsOfUser': {
        const docs = await this.list(this.engine.collection(sessionsProjection), [{ field: 'userId', op: 'eq', value: query.userId }], 'startedAt');
        return docs.map(sessionView);
      }
      case 'PasskeyById':
        return (await this.store.get(this.engine.collection(passkeysProjection), query.credentialId))?.doc ?? null;
      case 'PasskeysOfUser':
        return this.list(this.engine.collection(passkeysProjection), [{ field: 'userId', op: 'eq', value: query.userId }], 'created_at');
    }
  }

  private async one<D extends ReadModelDoc>(collection: Collection<D>, filters: Filter[]): Promise<D | null> {
    const [doc] = await this.store.find<D>(collection, { filters, limit: 1 });
    return doc ?? null;
  }

  private list<D extends ReadModelDoc>(collection: Collection<D>, filters: Filter[], field: string): Promise<D[]> {
    return this.store.find<D>(collection, { filters, sort: { field, direction: 'asc' }, limit: LIST_LIMIT });
  }
}
