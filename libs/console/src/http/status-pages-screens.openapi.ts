/** The console's status pages, subscribers, services and maintenance pages for the OpenAPI document: HTML, a session, no API key. */
import { account, html, idParam as id, Json, op, seeOther, signIn, text } from './console-openapi-parts';

const subscriptionId: Json = { name: 'subscriptionId', in: 'path', required: true, schema: { type: 'string', maxLength: 64 } };

function page(summary: string, params: Json[] = []): Json {
  return { get: op(summary, { 200: html('The page'), 303: signIn, ...(params.length > 0 && { 404: html('No such resource in this account') }) }, { parameters: [account, ...params] }) };
}

function form(summary: string, fields: Json, params: Json[] = [], description?: string): Json {
  const schema = { type: 'object', properties: { csrf: text(64), ...fields }, required: ['csrf'], additionalProperties: { type: 'string', maxLength: 2048 }, ...(description && { description }) };
  return op(summary, { 303: seeOther('Done: to the resource’s page'), 400: html('The form again, each error beside its field, what was typed kept'), 403: html('Cross-site, out-of-date form token, or a READ_ONLY member'), 404: html('No such resource in this account'), 409: html('Refused: the resource is in use or not in a state for this') }, {
    parameters: [account, ...params],
    requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema } } },
  });
}

const color = { type: 'string', pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$' };
const pageFields = { name: text(255), url: text(63), description: text(500), customDomain: text(253), logo: text(2048), logoDark: text(2048), favicon: text(2048), redirectTo: text(2048), defaultTheme: { type: 'string', enum: ['AUTO', 'LIGHT', 'DARK'] }, 'l-linkFontColor': color };
const PAGE_FORM = 'Colours `l-<key>` and `d-<key>` (light, dark: the twelve theme colour keys); cards `c<N>-id`, `c<N>-name`, `c<N>-pos`, `c<N>-remove`, and `c<N>-s<i>` = the position on the card of the `i`-th service listed in `svcs` (space-separated ids)';
const serviceFields = { name: text(255), description: text(500) };
const windowFields = { name: text(255), startsAt: text(40), endsAt: text(40), repeatInterval: text(10), repeatUnit: { type: 'string', enum: ['', 'DAY', 'WEEK', 'MONTH'] }, repeatEndsAt: text(40), timezone: text(64), tags: text(2000) };
const noFields = {};

export function statusPagesScreensOpenApiPaths(): Json {
  return {
    '/console/status-pages': { ...page('Status pages, with links to their public page and subscribers'), post: form('Create a status page', pageFields, [], PAGE_FORM) },
    '/console/status-pages/new': page('The form that creates a status page'),
    '/console/status-pages/{id}': { ...page('A status page: its custom domain’s proof and state, and the form that edits it', [id]), post: form('Save a status page', pageFields, [id], PAGE_FORM) },
    '/console/status-pages/{id}/domain-check': { post: form('Check the custom domain’s proof now', noFields, [id]) },
    '/console/status-pages/{id}/subscribers': { ...page('A status page’s subscribers, and the form that adds or imports them', [id]), post: form('Add or import subscribers: every line valid, or none is added', { rows: text(3500), verified: { type: 'string', enum: ['on'] } }, [id]) },
    '/console/status-pages/{id}/subscribers/export.csv': { get: op('A status page’s subscribers as CSV', { 200: { description: 'type,address,status,created_at', content: { 'text/csv': { schema: { type: 'string' } } } }, 303: signIn, 404: html('No such status page in this account') }, { parameters: [account, id] }) },
    '/console/status-pages/{id}/subscribers/{subscriptionId}/remove': { post: form('Remove a subscriber', noFields, [id, subscriptionId]) },
    '/console/services': { ...page('Services, and the form that adds one'), post: form('Add a service', serviceFields) },
    '/console/services/{id}': { ...page('A service and the form that edits it', [id]), post: form('Save a service', serviceFields, [id]) },
    '/console/services/{id}/delete': { post: form('Delete a service (refused while a card or an open incident uses it)', noFields, [id]) },
    '/console/maintenance': { ...page('Maintenance windows: active, upcoming, repeating and past; the form that plans one'), post: form('Plan a maintenance window (times in UTC)', windowFields) },
    '/console/maintenance/{id}': { ...page('A maintenance window and the form that edits it', [id]), post: form('Save a maintenance window', windowFields, [id]) },
    '/console/maintenance/{id}/end': { post: form('End an active window that does not repeat now', noFields, [id]) },
    '/console/maintenance/{id}/delete': { post: form('Delete a maintenance window', noFields, [id]) },
  };
}
