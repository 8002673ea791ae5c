import { Injectable } from '@nestjs/common';

/**
 * The ids of the services on a status page's cards, or null when the account has no such page.
 * Status pages are another context: it fills this in (setServicesOfPage) so that this context
 * never imports its internals; without it, no page is known.
 */
export type PageServicesResolver = (accountId: string, statusPageId: string) => Promise<string[] | null>;

@Injectable()
export class StatusPageLinks {
  private resolver: PageServicesResolver | null = null;

  setServicesOfPage(resolver: PageServicesResolver): void {
    this.resolver = resolver;
  }

  async servicesOfPage(accountId: string, statusPageId: string): Promise<string[] | null> {
    return this.resolver ? this.resolver(accountId, statusPageId) : null;
  }
}
