import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { AccountsQuery } from '../../../accounts/src/accounts.api';
import { AuditActor, AuditEntryView, AuditFilter, AuditQuery } from '../../../audit/src/audit.api';
import { PeopleQuery } from '../../../people/src/people.api';
import { PageAfter } from '../../../read-store/src/read-store.port';

/** Rows of one audit page (25 keeps a page of long diffs under 60 KB: the console does not compress). */
export const AUDIT_PAGE = 25;
/** Most entries one export holds (newest first); a narrower filter exports the rest. */
export const EXPORT_MAX = 10_000;
const EXPORT_PAGE = 500;

/** Who may appear as an author: the account's members and keys, by the filter's actor key. */
export interface AuthorNames {
  people: Map<string, string>;
  keys: Map<string, string>;
}

/** An entry with its author named. */
export interface NamedEntry extends AuditEntryView {
  author: string;
  actorKey: string;
}

/** Console pages that show a resource, by its audit type. */
const RESOURCE_PAGES: Record<string, string> = {
  incident: '/console/incidents/',
  'incident-template': '/console/incidents/templates/',
  check: '/console/checks/',
  'status-page': '/console/status-pages/',
  service: '/console/services/',
  'maintenance-window': '/console/maintenance/',
  'alert-channel': '/console/alert-channels/',
};

export const resourcePage = (type: string, id: string) => (RESOURCE_PAGES[type] ? RESOURCE_PAGES[type] + id : null);

/** The audit log's reads for the console: pages and exports, with people and keys named. */
@Injectable()
export class AuditReads {
  constructor(private readonly queries: QueryBus) {}

  async names(accountId: string): Promise<AuthorNames> {
    const [members, keys] = await Promise.all([
      this.queries.execute(new PeopleQuery({ type: 'MembersOfAccount', accountId })),
      this.queries.execute(new AccountsQuery({ type: 'ListApiKeys', accountId })),
    ]);
    return {
      people: new Map(members.map((m) => [m.userId, m.email])),
      keys: new Map(keys.map((k) => [k.id, k.name ? `${k.name} (${k.prefix}…)` : `${k.prefix}…`])),
    };
  }

  /** One page, newest first, and whether another follows. */
  async page(accountId: string, filter: AuditFilter, after: PageAfter | undefined, names: AuthorNames): Promise<{ entries: NamedEntry[]; more: boolean }> {
    const rows = await this.queries.execute(new AuditQuery({ type: 'ListAuditEntries', accountId, filter, limit: AUDIT_PAGE, after }));
    return { entries: rows.slice(0, AUDIT_PAGE).map((e) => named(e, names)), more: rows.length > AUDIT_PAGE };
  }

  /** Every entry the filter matches, newest first, at most EXPORT_MAX, read page by page as the caller consumes them. */
  async *all(accountId: string, filter: AuditFilter): AsyncGenerator<NamedEntry> {
    const names = await this.names(accountId);
    let after: PageAfter | undefined;
    for (let sent = 0; sent < EXPORT_MAX; ) {
      const rows = await this.queries.execute(new AuditQuery({ type: 'ListAuditEntries', accountId, filter, limit: EXPORT_PAGE, after }));
      for (const row of rows.slice(0, Math.min(EXPORT_PAGE, EXPORT_MAX - sent))) {
        yield named(row, names);
        sent++;
      }
      if (rows.length <= EXPORT_PAGE) return;
      const last = rows[EXPORT_PAGE - 1];
      after = { value: last.at, id: last.id };
    }
  }
}

function named(entry: AuditEntryView, names: AuthorNames): NamedEntry {
  return { ...entry, author: authorOf(entry.actor, names), actorKey: entry.actor.id ? `${entry.actor.kind}:${entry.actor.id}` : entry.actor.kind };
}

function authorOf(actor: AuditActor, names: AuthorNames): string {
  if (actor.kind === 'person') return names.people.get(actor.id!) ?? `former member ${actor.id!.slice(-8)}`;
  if (actor.kind === 'key') return `API key ${names.keys.get(actor.id!) ?? actor.name ?? actor.id!.slice(-8)}`;
  return actor.name ? `Vigil (${actor.name})` : 'Vigil';
}
