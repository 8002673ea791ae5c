import { Inject, Injectable } from '@nestjs/common';
import { Collection } from '../../../core/src/projection';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { FindQuery, READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { newestOfAccount } from './by-creation';
import { CheckRef, ServiceLinks } from './service-links';
import { ServiceDoc, servicesProjection } from './services.projection';
import { getOwn } from '../../../read-store/src/account-docs';

/** A service as every response shows it. */
export interface ServiceView {
  id: string;
  accountId: string;
  name: string;
  /** Present only when the service has one: a service without keeps the exact shape it always had. */
  description?: string;
  created_at: string;
  updated_at: string;
  checks: CheckRef[];
}

function view(doc: ServiceDoc, checks: ReadonlyMap<string, CheckRef[]>): ServiceView {
  return {
    id: doc.id,
    accountId: doc.accountId,
    name: doc.name,
    ...(doc.description ? { description: doc.description } : {}),
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    checks: checks.get(doc.id) ?? [],
  };
}

/** The services read model, for this context's queries and for other contexts (incidents, pages). */
@Injectable()
export class ServiceDirectory {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    private readonly links: ServiceLinks,
  ) {}

  async get(accountId: string, id: string): Promise<{ service: ServiceView; revision: bigint } | null> {
    const stored = await getOwn(this.store, this.collection(), accountId, id);
    if (!stored) return null;
    const [service] = await this.present(accountId, [stored.doc]);
    return { service, revision: stored.revision };
  }

  /** The account's services among `ids`, keyed by id; ids of other accounts or deleted services are absent. */
  async getMany(accountId: string, ids: string[]): Promise<Map<string, ServiceView>> {
    const unique = [...new Set(ids)];
    // The checks are asked by the ids wanted, beside the services: reads made together can go out together.
    const [stored, checks] = await Promise.all([this.store.getMany(this.collection(), unique), this.links.checksOf(accountId, unique)]);
    const own = stored.map((s) => s.doc).filter((doc) => doc.accountId === accountId);
    return new Map(own.map((doc) => [doc.id, view(doc, checks)]));
  }

  /** One page, newest first; asks for one row more than `limit` so the caller knows whether more follow. */
  async list(accountId: string, limit: number, after: FindQuery['after']): Promise<ServiceView[]> {
    return this.present(accountId, await newestOfAccount(this.store, this.collection(), accountId, limit, after));
  }

  private async present(accountId: string, docs: ServiceDoc[]): Promise<ServiceView[]> {
    const checks = await this.links.checksOf(accountId, docs.map((d) => d.id));
    return docs.map((doc) => view(doc, checks));
  }

  /** Every collection a ServiceView is built from now: for change tokens of answers that show services. */
  readFrom(): string[] {
    return [this.collection(), ...this.links.checksReadFrom()];
  }

  /** Changes whenever a ServiceView may have (null: the store cannot tell, nothing may be cached). */
  changeToken(): string | null {
    return this.store.changeToken(this.readFrom());
  }

  private collection(): Collection<ServiceDoc> {
    return this.engine.collection(servicesProjection);
  }
}
