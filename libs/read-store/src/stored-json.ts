import { ReadModelDoc } from '../../core/src/projection';

/** The text a stored document starts with when it still carries its id (every row written before ids were left out). */
const WITH_ID = '{"id":';
/** …and the opening quote of the id's string. */
const OPEN_ID = `${WITH_ID}"`;
const QUOTE = 0x22;
const COMMA = 0x2c;

/**
 * A document's JSON as the SQLite read store keeps it in a row: without the leading `"id"` member,
 * since the row's `id` column holds the id already. A heartbeat event's id is ~100 characters of a
 * ~300-character document, written once per ping. JSON whose first member is not exactly this id is
 * kept whole, and so were the rows of earlier versions: `decodeStoredDoc` reads both. Applied when a
 * write is prepared, so a document held in memory as text (a write-back one) is held in this form.
 */
export function storedText(id: string, json: string): string {
  // The common case first, without encoding the id (JSON.stringify of a 100-character id and two
  // startsWith cost ~0.6 µs a row): an id with no quote or backslash, written raw right after
  // `{"id":"` and followed by `",`. In JSON.stringify's text that is the document's own id, so this cuts
  // exactly where the check below would.
  const rawEnd = OPEN_ID.length + id.length;
  if (
    json.charCodeAt(rawEnd) === QUOTE &&
    json.charCodeAt(rawEnd + 1) === COMMA &&
    json.startsWith(OPEN_ID) &&
    json.slice(OPEN_ID.length, rawEnd) === id &&
    !id.includes('"') &&
    !id.includes('\\')
  ) {
    return '{' + json.slice(rawEnd + 2);
  }
  // An id JSON escapes.
  const quoted = JSON.stringify(id);
  const end = WITH_ID.length + quoted.length;
  // Only the exact id, followed by the next member: anything else stays as it is.
  if (json[end] !== ',' || !json.startsWith(WITH_ID) || !json.startsWith(quoted, WITH_ID.length)) return json;
  return '{' + json.slice(end + 1);
}

/** `storedText` of a document. */
export function encodeStoredDoc(doc: ReadModelDoc): string {
  return storedText(doc.id, JSON.stringify(doc));
}

/** The document `storedText` (or an earlier version, whole) stored under `id`, with its id first again. */
export function decodeStoredDoc<Doc extends ReadModelDoc = ReadModelDoc>(id: string, text: string): Doc {
  if (text.startsWith(WITH_ID)) return JSON.parse(text) as Doc;
  return JSON.parse(`${WITH_ID}${JSON.stringify(id)},${text.slice(1)}`) as Doc;
}
