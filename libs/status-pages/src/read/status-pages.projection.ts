import { Projection } from '../../../core/src/projection';
import { PageSettings, sameDomain, StatusPageEvent } from '../domain/status-page.decider';

export interface CardDoc {
  id: string;
  name: string;
  serviceIds: string[];
  created_at: string;
  updated_at: string;
}

/** A page's settings as the client set them, plus what the read side adds. */
export interface StatusPageDoc extends Omit<PageSettings, 'cards'> {
  id: string;
  accountId: string;
  cards: CardDoc[];
  /** Every service on the page's cards, once: what "pages using this service" looks up. */
  serviceIds: string[];
  created_at: string;
  updated_at: string;
  /** Set while the custom domain is proven to be the owner's (absent otherwise). */
  customDomainVerified?: true;
  [field: string]: unknown;
}

/** A card keeps its created_at while its id lives on; its updated_at moves only when it changed. */
function cardsOf(page: PageSettings, previous: CardDoc[], at: string): CardDoc[] {
  const before = new Map(previous.map((card) => [card.id, card]));
  return page.cards.map((card) => {
    const old = before.get(card.id);
    const changed = !old || old.name !== card.name || old.serviceIds.join(',') !== card.serviceIds.join(',');
    return {
      id: card.id,
      name: card.name,
      serviceIds: [...card.serviceIds],
      created_at: old?.created_at ?? at,
      updated_at: changed ? at : old.updated_at,
    };
  });
}

function docOf(id: string, accountId: string, page: PageSettings, cards: CardDoc[], created: string, updated: string): StatusPageDoc {
  return {
    id,
    accountId,
    name: page.name,
    url: page.url,
    customDomain: page.customDomain,
    description: page.description,
    logo: page.logo,
    logoDark: page.logoDark,
    favicon: page.favicon,
    redirectTo: page.redirectTo,
    defaultTheme: page.defaultTheme,
    themeColors: page.themeColors,
    cards,
    serviceIds: [...new Set(cards.flatMap((card) => card.serviceIds))],
    created_at: created,
    updated_at: updated,
  };
}

export const statusPagesProjection: Projection<StatusPageDoc, StatusPageEvent> = {
  name: 'status_pages',
  version: 2,
  handles: ['StatusPageCreated', 'StatusPageUpdated', 'StatusPageDeleted', 'StatusPageDomainVerified', 'StatusPageDomainVerificationLost'],
  indexes: [{ field: 'accountId' }, { field: 'created_at' }, { field: 'serviceIds', array: true }],
  sortField: 'created_at',
  ids: (event) => [event.data.id],
  evolve(doc, e) {
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'StatusPageCreated':
        return docOf(e.data.id, e.data.accountId, e.data.page, cardsOf(e.data.page, [], at), at, at);
      case 'StatusPageUpdated': {
        if (!doc) return doc;
        const updated = docOf(doc.id, doc.accountId, e.data.page, cardsOf(e.data.page, doc.cards, at), doc.created_at, at);
        return doc.customDomainVerified && sameDomain(doc.customDomain, e.data.page.customDomain) ? { ...updated, customDomainVerified: true } : updated;
      }
      case 'StatusPageDomainVerified':
        return doc && sameDomain(doc.customDomain, e.data.domain) ? { ...doc, customDomainVerified: true } : doc;
      case 'StatusPageDomainVerificationLost': {
        if (!doc) return doc;
        const { customDomainVerified: _dropped, ...rest } = doc;
        return rest as StatusPageDoc;
      }
      case 'StatusPageDeleted':
        return null;
      default:
        return doc;
    }
  },
};
