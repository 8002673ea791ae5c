/** The audit screens for the OpenAPI document: HTML and exports for a signed-in person (session), no API key. */
import { account, html, idParam as id, Json, op, signIn } from './console-openapi-parts';

const time = (name: string, description: string, required = false): Json => ({ name, in: 'query', required, schema: { type: 'string', maxLength: 29 }, description: `${description} (datetime-local, UTC, or ISO 8601)` });
const filters: Json[] = [
  account,
  { name: 'resource', in: 'query', required: false, schema: { type: 'string', maxLength: 200 }, description: 'A resource type (incident, check, …) or one resource as type:id' },
  { name: 'actor', in: 'query', required: false, schema: { type: 'string', maxLength: 200 }, description: 'person:<userId>, key:<keyId> or system' },
  time('from', 'Changes at or after'),
  time('to', 'Changes before'),
];

function get(summary: string, parameters: Json[], ok: Json, extra: Json = {}): Json {
  return { get: op(summary, { 200: ok, 303: signIn, ...extra }, { parameters }) };
}

export function auditOpenApiPaths(): Json {
  const bad = { 400: html('A filter field is not valid: the page names it') };
  const missing = { 400: html('No valid moment given'), 404: html('No such resource in this account at that moment') };
  return {
    '/console/audit': get('The audit log: every change to the account, who made it, when, field by field; 50 a page, newest first', [...filters, { name: 'after', in: 'query', required: false, schema: { type: 'string', maxLength: 200 }, description: 'The page cursor of an "Older changes" link' }], html('The page'), bad),
    '/console/audit/export.{format}': get(
      'The filtered audit log as CSV (one row per changed field) or NDJSON (one entry a line), newest first, at most 10,000 entries',
      [{ name: 'format', in: 'path', required: true, schema: { type: 'string', enum: ['csv', 'ndjson'] } }, ...filters],
      { description: 'The export, streamed', content: { 'text/csv': { schema: { type: 'string' } }, 'application/x-ndjson': { schema: { type: 'string' } } } },
      { ...bad, 404: html('No such export format') },
    ),
    '/console/incidents/{id}/as-of': get('An incident as it was at a moment, without any action', [account, id, time('at', 'The moment', true)], html('The past view'), missing),
    '/console/status-pages/{id}/as-of': get('A status page as it was at a moment, without any action', [account, id, time('at', 'The moment', true)], html('The past view'), missing),
  };
}
