import { Injectable } from '@nestjs/common';
import { CheckStatusView } from './check-directory';

/** A check of another kind (an uptime monitor) as Checkly's list shows it: at least these fields. */
export interface CatalogCheck {
  id: string;
  name: string;
  checkType: string;
  activated: boolean;
  muted: boolean;
  tags: string[];
  created_at: string;
  [field: string]: unknown;
}

/** What another context answers about its checks, so `/v1/checks` and `/v1/check-statuses` list every kind. */
export interface OtherChecksSource {
  list(accountId: string, limit: number): Promise<CatalogCheck[]>;
  get(accountId: string, id: string): Promise<CatalogCheck | null>;
  statuses(accountId: string): Promise<CheckStatusView[]>;
  status(accountId: string, id: string): Promise<CheckStatusView | null>;
}

/** Where the monitors context plugs in its checks without heartbeats depending on it. */
@Injectable()
export class OtherChecks {
  private readonly sources: OtherChecksSource[] = [];

  register(source: OtherChecksSource): void {
    this.sources.push(source);
  }

  async list(accountId: string, limit: number): Promise<CatalogCheck[]> {
    return (await Promise.all(this.sources.map((s) => s.list(accountId, limit)))).flat();
  }

  async get(accountId: string, id: string): Promise<CatalogCheck | null> {
    for (const source of this.sources) {
      const found = await source.get(accountId, id);
      if (found) return found;
    }
    return null;
  }

  async statuses(accountId: string): Promise<CheckStatusView[]> {
    return (await Promise.all(this.sources.map((s) => s.statuses(accountId)))).flat();
  }

  async status(accountId: string, id: string): Promise<CheckStatusView | null> {
    for (const source of this.sources) {
      const found = await source.status(accountId, id);
      if (found) return found;
    }
    return null;
  }
}
