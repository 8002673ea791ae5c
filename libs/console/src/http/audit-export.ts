import { NamedEntry } from '../read/audit-reads';

export const CSV_HEADER = 'at,author,actor,resource_type,resource_id,resource_name,action,event_type,field,before,after\r\n';

/** A CSV cell: quoted when needed, and never read as a formula by a spreadsheet. */
function cell(value: string | null | undefined): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** An entry as CSV rows: one per changed field (one with empty field columns when it changed none). */
export function csvRows(entry: NamedEntry): string {
  const head = [entry.at, entry.author, entry.actorKey, entry.resource.type, entry.resource.id, entry.resource.name, entry.action, entry.eventType];
  const changes = entry.changes.length > 0 ? entry.changes : [null];
  return changes.map((c) => [...head, c?.field, c?.before, c?.after].map(cell).join(',') + '\r\n').join('');
}

/** An entry as one line of NDJSON; a `before` no longer kept is absent. */
export function ndjsonLine(entry: NamedEntry): string {
  const { id, at, author, actor, actorKey, resource, action, eventType, changes } = entry;
  return JSON.stringify({ id, at, author, actor: { ...actor, key: actorKey }, resource, action, eventType, changes }) + '\n';
}
