import { ReadModelDoc } from '../../core/src/projection';

/** The text a stored document starts with when it still carries its id (every row written before ids were left out). */
const WITH_ID = '{"id":';

/**
 * A document's text as the SQLite read store keeps it: its JSON without the leading `"id"` member,
 * since the row's `id` column holds the id already. A heartbeat event's id is ~100 characters of a
 * ~300-character document, written once per ping. A document whose id is not its first member is
 * kept whole, and so are the rows of earlier versions: `decodeStoredDoc` reads both.
 */
export function encodeStoredDoc(doc: ReadModelDoc): string {
  const json = JSON.stringify(doc);
  const id = JSON.stringify(doc.id);
  const end = WITH_ID.length + id.length;
  // Only the exact id, followed by the next member or the end: anything else stays as it is.
  if (!json.startsWith(WITH_ID) || !json.startsWith(id, WITH_ID.length)) return json;
  if (json[end] === ',') return '{' + json.slice(end + 1);
  return json;
}

/** The document `encodeStoredDoc` (or an earlier version, whole) stored under `id`, with its id first again. */
export function decodeStoredDoc<Doc extends ReadModelDoc = ReadModelDoc>(id: string, text: string): Doc {
  if (text.startsWith(WITH_ID)) return JSON.parse(text) as Doc;
  return JSON.parse(`${WITH_ID}${JSON.stringify(id)},${text.slice(1)}`) as Doc;
}
