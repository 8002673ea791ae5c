import { Readable } from 'node:stream';
import { Get, Param, Query, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { FastifyReply, FastifyRequest } from 'fastify';
import { isUuid } from '../../../core/src/ids';
import { IncidentsQuery } from '../../../incidents/src/incidents.api';
import { StatusPagesQuery } from '../../../status-pages/src/status-pages.api';
import { AuditReads, AuthorNames, EXPORT_MAX, NamedEntry, resourcePage } from '../read/audit-reads';
import { when } from '../read/console-reads';
import { CSV_HEADER, csvRows, ndjsonLine } from './audit-export';
import { cursorOf, filterQuery, instantOf, localOf, parseAuditFilter } from './audit-filter';
import { CONSOLE_HEADERS, ConsoleAccess, ConsoleController, Visit } from './console-access';

const NOT_KEPT = 'no longer kept';
/** Resources that can be seen as they were at a moment. */
const AS_OF_PAGES: Record<string, string> = { incident: '/console/incidents/', 'status-page': '/console/status-pages/' };

/** The audit log (who changed what, when, field by field), its exports, and an incident as it was at a chosen moment. */
@ConsoleController('')
export class ConsoleAuditController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly audit: AuditReads,
    private readonly queries: QueryBus,
  ) {}

  @Get('audit')
  async log(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    if (!visit.accountId) return this.access.noAccount(reply, visit);
    const parsed = parseAuditFilter(request.query);
    const names = await this.audit.names(visit.accountId);
    const failed = Object.keys(parsed.errors).length > 0;
    const { entries, more } = failed ? { entries: [], more: false } : await this.audit.page(visit.accountId, parsed.filter, parsed.after, names);
    const accountAnd = visit.chrome.q ? `${visit.chrome.q.slice(1)}&` : '';
    const filters = filterQuery(parsed.values);
    const last = entries[entries.length - 1];
    const view = {
      values: parsed.values,
      errors: failed ? parsed.errors : undefined,
      authors: authorChoices(names, parsed.values.actor),
      entries: entries.map(row),
      filtered: filters !== '',
      accountAnd,
      exportQuery: accountAnd + filters,
      exportMax: EXPORT_MAX.toLocaleString('en'),
      paged: parsed.after !== undefined,
      firstQuery: accountAnd + filters,
      next: more && last ? `${accountAnd}${filters ? `${filters}&` : ''}after=${cursorOf(last.at, last.id)}` : null,
    };
    return this.access.render(reply, failed ? 400 : 200, visit, 'audit', { title: 'Audit log', nav: 'audit' }, view);
  }

  /** The filtered log as CSV or NDJSON, streamed page by page (at most EXPORT_MAX entries). */
  @Get('audit/export.:format')
  async export(@Param('format') format: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    if (format !== 'csv' && format !== 'ndjson') return this.access.message(reply, 404, visit, 'No such export', 'The audit log exports as export.csv or export.ndjson.');
    if (!visit.accountId) return this.access.message(reply, 404, visit, 'No account yet', 'You are not a member of any account.');
    const parsed = parseAuditFilter(request.query);
    const errors = Object.values(parsed.errors);
    if (errors.length > 0) return this.access.message(reply, 400, visit, 'The export was not made', errors.join(' '));
    const entries = this.audit.all(visit.accountId, parsed.filter);
    const body = Readable.from(format === 'csv' ? lines(CSV_HEADER, entries, csvRows) : lines('', entries, ndjsonLine));
    return reply
      .status(200)
      .headers({ ...CONSOLE_HEADERS, 'content-disposition': `attachment; filename="vigil-audit.${format}"` })
      .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .send(body);
  }

  /** An incident as it was at a chosen moment: the same page without any action, clearly marked as the past. */
  @Get('incidents/:id/as-of')
  async incidentAsOf(@Param('id') id: string, @Query('at') at: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const instant = typeof at === 'string' ? instantOf(at.trim()) : null;
    if (!instant) return this.access.message(reply, 400, visit, 'Choose a moment', 'Enter the date and time to see the incident at, such as 2026-11-28T09:30 (UTC).');
    const found = await this.incidentAt(visit, id, instant);
    if (!found) return this.access.message(reply, 404, visit, 'No such incident then', 'This account had no incident at this address at that moment.');
    const view = {
      incident: found,
      asOfText: when(instant),
      asOfValue: localOf(instant),
      timeline: [...found.incidentUpdates].reverse().map((u) => ({ ...u, when: when(u.publicIncidentUpdateDate) })),
    };
    return this.access.render(reply, 200, visit, 'incidentAsOf', { title: `${found.name} (as of ${when(instant)})`, nav: 'incidents' }, view);
  }

  /** A status page as it was at a chosen moment (its settings and cards; services by today's names). */
  @Get('status-pages/:id/as-of')
  async statusPageAsOf(@Param('id') id: string, @Query('at') at: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const instant = typeof at === 'string' ? instantOf(at.trim()) : null;
    if (!instant) return this.access.message(reply, 400, visit, 'Choose a moment', 'Enter the date and time to see the status page at, such as 2026-11-28T09:30 (UTC).');
    const found = visit.accountId && isUuid(id) ? await this.queries.execute(new StatusPagesQuery({ type: 'GetStatusPageAsOf', accountId: visit.accountId, id: id.toLowerCase(), at: new Date(instant) })) : null;
    if (!found) return this.access.message(reply, 404, visit, 'No such status page then', 'This account had no status page at this address at that moment.');
    const view = { page: found.page, asOfText: when(instant), asOfValue: localOf(instant) };
    return this.access.render(reply, 200, visit, 'statusPageAsOf', { title: `${found.page.name} (as of ${when(instant)})` }, view);
  }

  private async incidentAt(visit: Visit, id: string, instant: string) {
    if (!visit.accountId || !isUuid(id)) return null;
    const found = await this.queries.execute(new IncidentsQuery({ type: 'GetIncidentAsOf', accountId: visit.accountId, id: id.toLowerCase(), at: new Date(instant) }));
    return found?.incident ?? null;
  }
}

async function* lines(header: string, entries: AsyncGenerator<NamedEntry>, format: (entry: NamedEntry) => string): AsyncGenerator<string> {
  if (header) yield header;
  for await (const entry of entries) yield format(entry);
}

function authorChoices(names: AuthorNames, selected: string) {
  const choices = [
    ...[...names.people].map(([id, email]) => ({ value: `person:${id}`, text: email })),
    ...[...names.keys].map(([id, name]) => ({ value: `key:${id}`, text: `API key ${name}` })),
    { value: 'system', text: 'Vigil (background work)' },
  ];
  // A filter from a link (a former member, say) stays visible as chosen.
  if (selected && !choices.some((c) => c.value === selected)) choices.push({ value: selected, text: selected });
  return choices.map((c) => ({ ...c, selected: c.value === selected }));
}

function row(entry: NamedEntry) {
  return {
    ...entry,
    when: when(entry.at),
    page: resourcePage(entry.resource.type, entry.resource.id),
    resourceText: entry.resource.type === 'team' ? 'members and invitations' : (entry.resource.name ?? entry.resource.id),
    asOf: AS_OF_PAGES[entry.resource.type] ? `${AS_OF_PAGES[entry.resource.type]}${entry.resource.id}/as-of?at=${encodeURIComponent(entry.at)}` : null,
    changes: entry.changes.map((c) => ({ field: c.field, kept: c.before !== undefined, wasSet: c.before !== undefined && c.before !== null, before: c.before === undefined ? NOT_KEPT : (c.before ?? 'not set'), after: c.after ?? 'not set' })),
  };
}
