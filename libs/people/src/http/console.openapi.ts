/** The console's HTML routes (sign-in, sessions, members) for the OpenAPI document: pages, no API key. */
type Json = Record<string, unknown>;

const page = (description: string): Json => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const redirect = (description: string): Json => ({ description, headers: { location: { schema: { type: 'string' } } } });
const form = (fields: Record<string, Json>, required: string[]): Json => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: fields, required } } },
});
const text = (maxLength: number): Json => ({ type: 'string', maxLength });
const token = text(64);
const csrf = { csrf: text(64) };
const role = { type: 'string', enum: ['READ_ONLY', 'READ_WRITE', 'ADMIN'] };
const pathParam = (name: string): Json => ({ name, in: 'path', required: true, schema: name === 'id' ? { type: 'string', maxLength: 1024 } : { type: 'string', format: 'uuid' } });
const queryToken: Json = { name: 'token', in: 'query', required: true, schema: token, description: 'The secret of the emailed or printed link' };

function operation(summary: string, responses: Json, extra: Json = {}): Json {
  return { tags: ['console'], summary, description: `${summary}. A console route for a person signed in with a session cookie, never an API key.`, security: [], responses, ...extra };
}

/** A signed-in person's form: the session cookie, the page's form token, same-origin; 303 back to the console. */
function sessionForm(summary: string, fields: Record<string, Json>, required: string[], params: string[]): Json {
  return {
    post: operation(summary, { 303: redirect('Done: back to the console (or to sign-in without a session)'), 403: page('Cross-site request, missing form token, or not an ADMIN'), 409: page('Refused: an account keeps one ADMIN') }, {
      parameters: params.map(pathParam),
      requestBody: form({ ...csrf, ...fields }, ['csrf', ...required]),
    }),
  };
}

const json = (description: string, properties: Record<string, Json>): Json => ({ description, content: { 'application/json': { schema: { type: 'object', properties, additionalProperties: true } } } });
const jsonError = (description: string): Json => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
/** A WebAuthn JSON object of the browser (PublicKeyCredential as JSON): its fields are the W3C's, checked by the ceremony. */
const credential: Json = { type: 'object', properties: { id: text(1024), type: text(32) }, required: ['id'], additionalProperties: true };
const options = (description: string) => json(description, { challenge: text(128) });
const jsonBody = (properties: Record<string, Json>, required: string[]): Json => ({ required: true, content: { 'application/json': { schema: { type: 'object', properties, required } } } });
const ceremony = (summary: string, ok: Json, extra: Json = {}): Json => ({
  post: operation(summary, { 200: ok, 401: jsonError('Not signed in (registration steps)'), 403: jsonError('Cross-site request or missing x-csrf-token') }, extra),
});

export function consoleOpenApiPaths(): Json {
  return {
    '/console/passkeys/registration-options': ceremony('WebAuthn registration options for the signed-in person (x-csrf-token header)', options('PublicKeyCredentialCreationOptionsJSON')),
    '/console/passkeys': ceremony('Register a passkey from the browser’s attestation', json('Registered', { registered: { type: 'boolean' } }), {
      requestBody: jsonBody({ name: text(60), response: credential }, ['name', 'response']),
      responses: { 201: json('Registered', { registered: { type: 'boolean' } }), 400: jsonError('Not a valid registration'), 401: jsonError('Not signed in'), 403: jsonError('Cross-site request or missing x-csrf-token') },
    }),
    '/console/passkeys/{id}/remove': sessionForm('Remove one of the person’s passkeys', {}, [], ['id']),
    '/console/passkeys/{id}/rename': sessionForm('Rename one of the person’s passkeys (1 to 60 characters)', { name: text(60) }, ['name'], ['id']),
    '/console/sign-in/passkey-options': ceremony('WebAuthn authentication options (discoverable credentials)', options('PublicKeyCredentialRequestOptionsJSON')),
    '/console/sign-in/passkey': ceremony('Sign in with a passkey assertion: sets the session cookie', json('Where to go', { location: text(64) }), {
      requestBody: jsonBody({ response: credential }, ['response']),
      responses: { 200: json('Signed in: where to go', { location: text(64) }), 400: jsonError('The passkey could not sign in (unknown, tampered or replayed)'), 403: jsonError('Cross-site request') },
    }),
    '/console/account': { get: operation('The person’s page: their accounts, members and sessions', { 200: page('The console'), 303: redirect('Not signed in: to /console/sign-in') }) },
    '/console/assets/{file}': { get: operation("The console's stylesheet, scripts and icon, by content-hashed name", { 200: { description: 'The file', content: { 'text/css': { schema: { type: 'string' } }, 'text/javascript': { schema: { type: 'string' } }, 'image/svg+xml': { schema: { type: 'string' } } } }, 404: page('No such file') }, { parameters: [{ name: 'file', in: 'path', required: true, schema: text(64) }] }) },
    '/console/sign-in': {
      get: operation('The sign-in form', { 200: page('The form'), 303: redirect('Already signed in') }),
      post: operation('Email a sign-in link (the same answer for known and unknown addresses)', { 200: page('Check your inbox'), 403: page('Posted from another site'), 429: page('Too many attempts') }, { requestBody: form({ email: text(254) }, ['email']) }),
    },
    '/console/sign-in/link': {
      get: operation('A page with a button that signs in (changes nothing: mail scanners follow links)', { 200: page('The page'), 400: page('The link is expired, used or mistyped') }, { parameters: [queryToken] }),
      post: operation('Sign in with a link (once, within 15 minutes): sets the session cookie', { 303: redirect('Signed in: to /console'), 400: page('The link is expired, used or mistyped'), 403: page('Posted from another site') }, { requestBody: form({ token }, ['token']) }),
    },
    '/console/invitations/accept': {
      get: operation('A page with a button accepting an invitation (changes nothing)', { 200: page('The page'), 400: page('The invitation is expired, used, revoked or mistyped') }, { parameters: [queryToken] }),
      post: operation('Accept an invitation (once, within 7 days): become a member and sign in', { 303: redirect('Signed in'), 400: page('The invitation is not valid'), 403: page('Posted from another site') }, { requestBody: form({ token }, ['token']) }),
    },
    '/console/oidc/start': {
      get: operation('Single sign-on: to the OpenID provider (authorization code with PKCE), with a short-lived flow cookie', { 303: redirect('To the provider'), 404: page('Single sign-on is not set up'), 502: page('The provider cannot be reached') }),
    },
    '/console/oidc/callback': {
      get: operation('Where the OpenID provider sends the person back: signs in a member or an invited address', {
        303: redirect('Signed in: to /console'),
        400: page('Wrong state or nonce, not started in this browser, or refused by the provider'),
        403: page('An address with no membership or invitation, or one the provider does not call verified'),
        404: page('Single sign-on is not set up'),
        502: page('The provider cannot be reached'),
      }, {
        parameters: [
          { name: 'code', in: 'query', required: false, schema: text(2048) },
          { name: 'state', in: 'query', required: false, schema: text(256) },
        ],
      }),
    },
    '/console/sign-out': sessionForm('Sign out this session', {}, [], []),
    '/console/sessions/end-all': sessionForm("Sign out all of the person's sessions", {}, [], []),
    '/console/sessions/{id}/end': sessionForm('Sign out one of the person’s sessions', {}, [], ['id']),
    '/console/accounts/{accountId}/invitations': sessionForm('Invite an address to the account (ADMIN)', { email: text(254), role }, ['email', 'role'], ['accountId']),
    '/console/accounts/{accountId}/invitations/{invitationId}/revoke': sessionForm('Revoke a pending invitation (ADMIN)', {}, [], ['accountId', 'invitationId']),
    '/console/accounts/{accountId}/members/{userId}/role': sessionForm("Change a member's role (ADMIN)", { role }, ['role'], ['accountId', 'userId']),
    '/console/accounts/{accountId}/members/{userId}/remove': sessionForm('Remove a member and end their sessions (ADMIN)', {}, [], ['accountId', 'userId']),
  };
}
