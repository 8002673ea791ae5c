import { Injectable } from '@nestjs/common';
import { MaintenanceDirectory } from '../../../maintenance/src/maintenance.api';

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

/** How far ahead pages list scheduled maintenance. */
const UPCOMING_MS = 30 * 24 * 3_600_000;

/** The maintenance context's windows as public pages show them: active now, or upcoming within 30 days. */
@Injectable()
export class PublicMaintenanceWindows {
  constructor(private readonly windows: MaintenanceDirectory) {}

  async around(accountId: string, serviceIds: string[], now: Date): Promise<{ active: PublicMaintenance[]; upcoming: PublicMaintenance[] }> {
    const occurrences = await this.windows.upcoming(accountId, now, new Date(now.getTime() + UPCOMING_MS), { serviceIds });
    const active: PublicMaintenance[] = [];
    const upcoming: PublicMaintenance[] = [];
    const at = now.toISOString();
    // A repeating window shows its current or next occurrence only.
    const seen = new Set<string>();
    for (const { window, start, end } of occurrences) {
      if (seen.has(window.id)) continue;
      seen.add(window.id);
      const shown: PublicMaintenance = {
        id: window.id,
        name: window.name,
        startsAt: start.toISOString(),
        endsAt: end.toISOString(),
        serviceIds: window.serviceIds.filter((id) => serviceIds.includes(id)),
        created_at: window.created_at,
        updated_at: window.updated_at,
      };
      if (shown.endsAt <= at) continue;
      (shown.startsAt <= at ? active : upcoming).push(shown);
    }
    upcoming.sort((a, b) => (a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : 0));
    return { active, upcoming };
  }

  /** Part of public answers' change token; null when the store cannot tell. */
  changeToken(): string | null {
    return this.windows.changeToken();
  }
}
