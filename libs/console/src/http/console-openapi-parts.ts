/** The parts every console screen's OpenAPI paths are built from: HTML pages and forms for a signed-in person, no API key. */
export type Json = Record<string, unknown>;

export const html = (description: string): Json => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
/** A redirect: its body is empty, the Location header says where. */
export const seeOther = (description: string): Json => ({ description, headers: { location: { schema: { type: 'string' } } }, content: { 'text/plain': { schema: { type: 'string', maxLength: 0 } } } });
export const signIn = seeOther('Not signed in: to /console/sign-in');
export const text = (maxLength: number): Json => ({ type: 'string', maxLength });
export const account: Json = { name: 'account', in: 'query', required: false, schema: { type: 'string', format: 'uuid' }, description: 'Which of the person’s accounts (default: the first)' };
export const idParam: Json = { name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 64 } };

const SESSION = 'A page of the operator console for a signed-in person (session cookie from /console/sign-in), not the API: no API key.';

export function op(summary: string, responses: Json, extra: Json = {}): Json {
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
