/** The console's pages (overview, incidents, checks) for the OpenAPI document: HTML, a session, no API key. */
export type Json = Record<string, unknown>;
import { opsPagesOpenApiPaths } from './ops-pages.openapi';

const html = (description: string): Json => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
/** A redirect: its body is empty, the Location header says where. */
const seeOther = (description: string): Json => ({ description, headers: { location: { schema: { type: 'string' } } }, content: { 'text/plain': { schema: { type: 'string', maxLength: 0 } } } });
export const text = (maxLength: number): Json => ({ type: 'string', maxLength });
const account: Json = { name: 'account', in: 'query', required: false, schema: { type: 'string', format: 'uuid' }, description: 'Which of the person’s accounts (default: the first)' };
export const idParam: Json = { name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 64 } };
const signIn = seeOther('Not signed in: to /console/sign-in');

const SESSION = 'A page of the operator console for a signed-in person (session cookie from /console/sign-in), not the API: no API key.';

function op(summary: string, responses: Json, extra: Json = {}): Json {
  return { tags: ['console'], summary, description: `${summary}. ${SESSION}`, security: [], responses, ...extra };
}

export function page(summary: string, params: Json[] = [], notFound = false): Json {
  return { get: op(summary, { 200: html('The page'), 303: signIn, ...(notFound && { 404: html('No such resource in this account') }) }, { parameters: [account, ...params] }) };
}

/** A form of a READ_WRITE or ADMIN member: the session cookie, the page's form token, same origin. */
export function form(summary: string, fields: Record<string, Json>, required: string[], params: Json[] = [], services = false): Json {
  return op(summary, { 303: seeOther('Done: to the resource’s page'), 400: html('The form again, each error beside its field, what was typed kept'), 403: html('Cross-site, out-of-date form token, or a READ_ONLY member'), 404: html('No such resource in this account') }, {
    parameters: [account, ...params],
    requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { csrf: text(64), ...fields }, required: ['csrf', ...required], ...(services && { additionalProperties: { type: 'string', enum: ['on'] }, description: 'An affected service: a field `service-{id}` set to `on` (at most 50)' }) } } } },
  });
}

const status = { type: 'string', enum: ['INVESTIGATING', 'IDENTIFIED', 'MONITORING', 'RESOLVED'] };
const update = { status, description: text(10_000), notify: { type: 'string', enum: ['on'] } };

export function consolePagesOpenApiPaths(): Json {
  return {
    '/console': page('Overview: open incidents, services by status, checks by state (failing first), maintenance'),
    '/console/events': { get: op('Server-sent events: `change` when the overview’s content changes', { 200: { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, 401: { description: 'Not signed in', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } }, { parameters: [account] }) },
    '/console/incidents': {
      ...page('Incidents, newest first, and the form that declares one', [{ name: 'status', in: 'query', required: false, schema: { type: 'string', enum: ['open', 'resolved'] } }]),
      post: form('Declare an incident', { name: text(255), severity: { type: 'string', enum: ['CRITICAL', 'MAJOR', 'MEDIUM', 'MINOR'] }, ...update }, ['name', 'severity', 'status', 'description'], [], true),
    },
    '/console/incidents/{id}': page('An incident and its timeline, with the form that posts an update', [idParam], true),
    '/console/checks': page('Checks with their state and last ping, failing first', [{ name: 'state', in: 'query', required: false, schema: { type: 'string', enum: ['NEW', 'UP', 'LATE', 'FAILING', 'PAUSED'] } }]),
    '/console/checks/{id}': page('A check: its state, last ping, ping URL and a crontab line', [idParam], true),
    '/console/checks/{id}/pause': { post: form('Pause a check (no alert until its next ping, which resumes it)', {}, [], [idParam]) },
    '/console/incidents/{id}/updates': { post: form('Post an update, change the status or resolve (status RESOLVED)', update, ['status', 'description'], [idParam]) },
    ...opsPagesOpenApiPaths(),
  };
}
