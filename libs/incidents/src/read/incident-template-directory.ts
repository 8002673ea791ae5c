import { Inject, Injectable } from '@nestjs/common';
import { Collection } from '../../../core/src/projection';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { PageAfter, READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { ServiceDirectory, ServiceView } from '../../../status-pages/src/status-pages.api';
import { TemplateContent } from '../domain/incident-template.decider';
import { IncidentTemplateDoc, incidentTemplatesProjection } from './incident-templates.projection';
import { getOwn } from '../../../read-store/src/account-docs';
import { newestOfAccount } from '../../../http/src/account-pages';

/** An incident template as every response shows it: services expanded, those deleted since it was saved left out. */
export interface IncidentTemplateView extends Omit<TemplateContent, 'serviceIds'> {
  id: string;
  services: ServiceView[];
  created_at: string;
  updated_at: string;
}

/** The incident templates read model, for the API and the console. */
@Injectable()
export class IncidentTemplateDirectory {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    private readonly services: ServiceDirectory,
  ) {}

  async get(accountId: string, id: string): Promise<{ template: IncidentTemplateView; revision: bigint } | null> {
    const stored = await getOwn(this.store, this.collection(), accountId, id);
    if (!stored) return null;
    const [template] = await this.present(accountId, [stored.doc]);
    return { template, revision: stored.revision };
  }

  /** One page, newest first, one row more than `limit`. */
  async list(accountId: string, limit: number, after?: PageAfter): Promise<IncidentTemplateView[]> {
    return this.present(accountId, await newestOfAccount(this.store, this.collection(), accountId, limit, after));
  }

  /** Joins the services of all templates with one lookup, keeping each template's order. */
  private async present(accountId: string, docs: IncidentTemplateDoc[]): Promise<IncidentTemplateView[]> {
    const services = await this.services.getMany(accountId, docs.flatMap((doc) => doc.serviceIds));
    return docs.map((doc) => ({
      id: doc.id,
      name: doc.name,
      title: doc.title,
      severity: doc.severity,
      status: doc.status,
      body: doc.body,
      // A template is not a live incident: it does not hold its services, and one deleted since is dropped here.
      services: doc.serviceIds.flatMap((id) => services.get(id) ?? []),
      notifySubscribers: doc.notifySubscribers,
      created_at: doc.created_at,
      updated_at: doc.updated_at,
    }));
  }

  private collection(): Collection<IncidentTemplateDoc> {
    return this.engine.collection(incidentTemplatesProjection);
  }
}
