import { Injectable } from '@nestjs/common';

export interface CheckRef {
  id: string;
  name: string;
}

/** Heartbeat checks whose triggerIncident names a service, per service id. */
export type ChecksSource = (accountId: string, serviceIds: string[]) => Promise<Map<string, CheckRef[]>>;
/** What still uses a service (a card, an open incident), or null when nothing does. */
export type UsageSource = (accountId: string, serviceId: string) => Promise<string | null>;

/**
 * Where other contexts plug in what they know about services, so this context never imports
 * theirs: heartbeats report the checks of a service, cards and incidents report that they use one.
 */
@Injectable()
export class ServiceLinks {
  private readonly checksSources: { read: ChecksSource; collections: () => readonly string[] }[] = [];
  private readonly usageSources: UsageSource[] = [];

  /** `collections`: the read-model collections the source answers from now (for change tokens). */
  addChecksSource(read: ChecksSource, collections: () => readonly string[]): void {
    this.checksSources.push({ read, collections });
  }

  /** Every collection a service's `checks` are read from, as the sources name them now. */
  checksReadFrom(): string[] {
    return this.checksSources.flatMap((source) => source.collections());
  }

  addUsageSource(source: UsageSource): void {
    this.usageSources.push(source);
  }

  async checksOf(accountId: string, serviceIds: string[]): Promise<Map<string, CheckRef[]>> {
    const merged = new Map<string, CheckRef[]>();
    if (serviceIds.length === 0) return merged;
    // Asked together, so that a batching read store sends them in one round trip.
    for (const found of await Promise.all(this.checksSources.map((source) => source.read(accountId, serviceIds)))) {
      for (const [serviceId, checks] of found) merged.set(serviceId, [...(merged.get(serviceId) ?? []), ...checks]);
    }
    return merged;
  }

  async usageOf(accountId: string, serviceId: string): Promise<string | null> {
    for (const source of this.usageSources) {
      const usedBy = await source(accountId, serviceId);
      if (usedBy) return usedBy;
    }
    return null;
  }
}
