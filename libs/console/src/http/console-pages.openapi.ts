/** The console's pages for the OpenAPI document: the overview and incidents here, the other screens from their own files. */
import { statusPagesScreensOpenApiPaths } from './status-pages-screens.openapi';
import { auditOpenApiPaths } from './audit.openapi';
import { account, form, idParam, Json, op, page, text } from './console-openapi-parts';
import { opsPagesOpenApiPaths } from './ops-pages.openapi';
import { incidentTemplatesOpenApiPaths } from './incident-templates.openapi';

const status = { type: 'string', enum: ['INVESTIGATING', 'IDENTIFIED', 'MONITORING', 'RESOLVED'] };
const at = { type: 'string', maxLength: 19, description: 'The update’s public date, UTC, `YYYY-MM-DDTHH:MM` (empty: now; not in the future)' };
const update = { status, description: text(10_000), at, notify: { type: 'string', enum: ['on'] } };
const severity = { type: 'string', enum: ['CRITICAL', 'MAJOR', 'MEDIUM', 'MINOR'] };
const updateId: Json = { name: 'updateId', in: 'path', required: true, schema: { type: 'string', maxLength: 64 } };
const listQuery: Json[] = [
  { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: ['open', 'resolved'] } },
  { name: 'search', in: 'query', required: false, schema: { type: 'string', maxLength: 255 }, description: 'Name contains (any case)' },
  { name: 'severity', in: 'query', required: false, schema: severity },
  { name: 'service', in: 'query', required: false, schema: { type: 'string', format: 'uuid' } },
  { name: 'after', in: 'query', required: false, schema: { type: 'string', maxLength: 100 }, description: 'The next page’s cursor, from the page’s “Older incidents” link' },
  { name: 'template', in: 'query', required: false, schema: { type: 'string', format: 'uuid' }, description: 'Fill the declare form from this incident template (404 when the account has none such)' },
];

export function consolePagesOpenApiPaths(): Json {
  return {
    ...statusPagesScreensOpenApiPaths(),
    ...auditOpenApiPaths(),
    ...incidentTemplatesOpenApiPaths(),
    '/console': page('Overview: open incidents, services by status, checks by state (failing first), maintenance'),
    '/console/events': { get: op('Server-sent events: `change` when the overview’s content changes', { 200: { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, 401: { description: 'Not signed in', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } }, { parameters: [account] }) },
    '/console/incidents': {
      ...page('Incidents, newest first, 50 a page, searched and filtered, and the form that declares one', listQuery),
      post: form('Declare an incident (a past one with a resolution: backfilled), or with `action=preview` show it as customers will see it', { name: text(255), severity, ...update, resolvedAt: at, resolution: text(10_000), action: { type: 'string', enum: ['declare', 'preview'] } }, ['name', 'severity', 'status', 'description'], [], true),
    },
    '/console/incidents/{id}': {
      ...page('An incident and its timeline, with the forms that post an update and change its details', [idParam], true),
      post: form('Change an incident’s name, severity and services', { name: text(255), severity }, ['name', 'severity'], [idParam], true),
    },
    '/console/incidents/{id}/updates/{updateId}': {
      ...page('The form that edits one update of an incident', [idParam, updateId], true),
      post: form('Edit an update: text, status, public date (subscribers are not notified again)', { status, description: text(10_000), at }, ['status', 'description'], [idParam, updateId]),
    },
    '/console/checks/{id}/pause': { post: form('Pause a check (no alert until its next ping, which resumes it)', {}, [], [idParam]) },
    '/console/monitors': page('Monitors with their type, state and last run'),
    '/console/monitors/{id}': page('A monitor: its state, last run and last 24 hours', [idParam], true),
    '/console/incidents/{id}/updates': { post: form('Post an update, change the status or resolve (status RESOLVED)', update, ['status', 'description'], [idParam]) },
    ...opsPagesOpenApiPaths(),
  };
}
