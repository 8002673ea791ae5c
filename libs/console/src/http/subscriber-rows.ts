import { isDeliverableAddress, MAX_BULK_SUBSCRIPTIONS, SubscriptionType, SubscriptionView } from '../../../status-pages/src/status-pages.api';

/** An import holds at most as many rows as the API's bulk add, and fits a console form's body (4 KB, urlencoded). */
export const MAX_ROWS = MAX_BULK_SUBSCRIPTIONS;
export const MAX_TEXT = 3500;

export interface Row {
  type: SubscriptionType;
  address: string;
}

/** One CSV line's cells: commas split, double quotes quote ("" is a quote). */
export function cells(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '"' && line[i + 1] === '"') (cell += '"'), i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) out.push(cell.trim()), (cell = '');
    else cell += c;
  }
  out.push(cell.trim());
  return out;
}

const WEBHOOK = (url: string) => {
  if (url.length > 2048) return false;
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
};

/**
 * The rows of a pasted list or exported CSV, each checked; any error means nothing is written (the caller
 * shows every error, by line). A first line naming `address` or `email` is a header telling the columns.
 */
export function parseRows(text: string): { rows: Row[]; errors: string[] } {
  if (text.length > MAX_TEXT) return { rows: [], errors: [`The list is longer than ${MAX_TEXT} characters: import it in parts.`] };
  const lines = text.split(/\r?\n/).map((line, i) => ({ n: i + 1, cells: cells(line) })).filter((l) => l.cells.some((c) => c !== ''));
  if (lines.length === 0) return { rows: [], errors: ['Give at least one subscriber.'] };
  let typeAt = -1;
  let addressAt = -1;
  const head = lines[0].cells.map((c) => c.toLowerCase());
  if (head.includes('address') || head.includes('email')) {
    typeAt = head.indexOf('type');
    addressAt = head.includes('address') ? head.indexOf('address') : head.indexOf('email');
    lines.shift();
  }
  if (lines.length > MAX_ROWS) return { rows: [], errors: [`At most ${MAX_ROWS} subscribers at a time (this has ${lines.length}): import it in parts.`] };
  const rows: Row[] = [];
  const errors: string[] = [];
  for (const { n, cells: c } of lines) {
    const single = addressAt < 0 && c.length === 1;
    const type = (single ? 'EMAIL' : (typeAt >= 0 ? c[typeAt] : addressAt >= 0 ? 'EMAIL' : c[0]) ?? '').toUpperCase();
    // An export's formula guard (a leading ') comes off again.
    const address = ((single ? c[0] : addressAt >= 0 ? c[addressAt] : c[1]) ?? '').replace(/^'(?=[=+\-@])/, '');
    if (type !== 'EMAIL' && type !== 'WEBHOOK') errors.push(`Line ${n}: the type must be EMAIL or WEBHOOK, not "${type}".`);
    else if (address === '') errors.push(`Line ${n}: no address.`);
    else if (type === 'EMAIL' && !isDeliverableAddress(address)) errors.push(`Line ${n}: "${address}" is not an email address.`);
    else if (type === 'WEBHOOK' && !WEBHOOK(address)) errors.push(`Line ${n}: "${address}" is not an https URL.`);
    else rows.push({ type, address });
  }
  return { rows, errors };
}

/** A cell a spreadsheet will not run as a formula, quoted when it must be. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The subscribers as CSV (a header line, then one a line): what the import reads back. */
export function toCsv(subscribers: SubscriptionView[]): string {
  const lines = [['type', 'address', 'status', 'created_at'], ...subscribers.map((s) => [s.type, s.address, s.status, s.created_at])];
  return lines.map((line) => line.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
