import { Projection } from '../../../core/src/projection';
import { StatusPageEvent } from '../../../status-pages/src/domain/status-page.decider';

/** Where a page answers publicly: its url slug and, if set, its custom domain (lower case). */
export interface PageAddressDoc {
  id: string;
  accountId: string;
  url: string;
  domain: string | null;
  [field: string]: unknown;
}

export const PAGE_ADDRESSES = 'public_page_addresses';

/** One document per page, from its own stream: a rename or a delete moves or removes it in the same write. */
export const pageAddressesProjection: Projection<PageAddressDoc, StatusPageEvent> = {
  name: PAGE_ADDRESSES,
  version: 1,
  handles: ['StatusPageCreated', 'StatusPageUpdated', 'StatusPageDeleted'],
  indexes: [{ field: 'url' }, { field: 'domain' }],
  ids: (event) => [event.data.id],
  evolve(doc, e) {
    switch (e.type) {
      case 'StatusPageCreated':
        return { id: e.data.id, accountId: e.data.accountId, url: e.data.page.url, domain: e.data.page.customDomain?.toLowerCase() ?? null };
      case 'StatusPageUpdated':
        return doc && { id: doc.id, accountId: doc.accountId, url: e.data.page.url, domain: e.data.page.customDomain?.toLowerCase() ?? null };
      case 'StatusPageDeleted':
        return null;
      default:
        return doc;
    }
  },
};
