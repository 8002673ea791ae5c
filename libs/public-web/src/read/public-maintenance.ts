import { Injectable } from '@nestjs/common';

/** A maintenance window as public pages show it (contract §4.1). */
export interface PublicMaintenance {
  id: string;
  name: string;
  startsAt: string;
  endsAt: string;
  serviceIds: string[];
  created_at: string;
  updated_at: string;
}

/** Windows of the account naming any of `serviceIds` that are active at `now` or start later. */
export type PublicMaintenanceSource = (accountId: string, serviceIds: string[], now: Date) => Promise<PublicMaintenance[]>;

/**
 * Where the maintenance context plugs in its query, as incidents do for status pages (PageIncidents),
 * so public pages never import its internals. Until a source registers, there is no maintenance.
 */
@Injectable()
export class PublicMaintenanceWindows {
  private readonly sources: PublicMaintenanceSource[] = [];
  private readonly tokens: (() => string | null)[] = [];

  /** `changeToken`: changes whenever the source's answer may have (ReadStore.changeToken of its collections). */
  register(source: PublicMaintenanceSource, changeToken: () => string | null): void {
    this.sources.push(source);
    this.tokens.push(changeToken);
  }

  async around(accountId: string, serviceIds: string[], now: Date): Promise<{ active: PublicMaintenance[]; upcoming: PublicMaintenance[] }> {
    const active: PublicMaintenance[] = [];
    const upcoming: PublicMaintenance[] = [];
    const at = now.toISOString();
    for (const source of this.sources) {
      for (const window of await source(accountId, serviceIds, now)) {
        if (window.endsAt <= at) continue;
        (window.startsAt <= at ? active : upcoming).push(window);
      }
    }
    upcoming.sort((a, b) => (a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : 0));
    return { active, upcoming };
  }

  /** Part of public answers' change token; null when a source cannot tell (then nothing is kept). */
  changeToken(): string | null {
    const parts: string[] = [];
    for (const token of this.tokens) {
      const value = token();
      if (value === null) return null;
      parts.push(value);
    }
    return parts.join('|');
  }
}
