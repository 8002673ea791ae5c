import { Projection } from '../../../core/src/projection';
import { StatusPageEvent } from '../../../status-pages/src/status-pages.api';

/** Where a page answers publicly: its url slug and its custom domain (lower case) once its owner has proven it. */
export interface PageAddressDoc {
  id: string;
  accountId: string;
  url: string;
  /** The custom domain the page shows, verified or not. */
  customDomain: string | null;
  /** Where the page answers by Host: the custom domain once verified, else null. */
  domain: string | null;
  [field: string]: unknown;
}

const lower = (domain: string | null | undefined) => domain?.toLowerCase() ?? null;

export const PAGE_ADDRESSES = 'public_page_addresses';

/** One document per page, from its own stream: a rename or a delete moves or removes it in the same write. */
export const pageAddressesProjection: Projection<PageAddressDoc, StatusPageEvent> = {
  name: PAGE_ADDRESSES,
  version: 2,
  handles: ['StatusPageCreated', 'StatusPageUpdated', 'StatusPageDeleted', 'StatusPageDomainVerified', 'StatusPageDomainVerificationLost'],
  indexes: [{ field: 'url' }, { field: 'domain' }],
  ids: (event) => [event.data.id],
  evolve(doc, e) {
    switch (e.type) {
      case 'StatusPageCreated':
        return { id: e.data.id, accountId: e.data.accountId, url: e.data.page.url, customDomain: lower(e.data.page.customDomain), domain: null };
      case 'StatusPageUpdated': {
        if (!doc) return doc;
        const customDomain = lower(e.data.page.customDomain);
        // A verified domain stays verified while the page keeps it; a new one waits for its own proof.
        return { id: doc.id, accountId: doc.accountId, url: e.data.page.url, customDomain, domain: doc.domain !== null && doc.domain === customDomain ? doc.domain : null };
      }
      case 'StatusPageDomainVerified':
        return doc && doc.customDomain === lower(e.data.domain) ? { ...doc, domain: doc.customDomain } : doc;
      case 'StatusPageDomainVerificationLost':
        return doc && { ...doc, domain: null };
      case 'StatusPageDeleted':
        return null;
      default:
        return doc;
    }
  },
};
