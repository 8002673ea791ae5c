// A real OpenID provider (oidc-provider) for the SSO tests, in its own process: it is ESM-only and jest is not.
// OIDC_TEST_CLIENT = {"client_id","client_secret","redirect_uri"}; OIDC_TEST_ACCOUNTS = {"<id>": {email, email_verified}}.
// The person's account is named by the `login_hint` of the authorization request, or typed in a one-field login
// form (a browser's test); consent needs no form.
// Prints `READY <issuer>` once listening on 127.0.0.1 at a free port.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const client = JSON.parse(process.env.OIDC_TEST_CLIENT ?? '{}');
const accounts = JSON.parse(process.env.OIDC_TEST_ACCOUNTS ?? '{}');

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: client.client_id,
      client_secret: client.client_secret,
      redirect_uris: [client.redirect_uri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  scopes: ['openid', 'email'],
  findAccount: (_ctx, id) => (accounts[id] ? { accountId: id, claims: () => ({ sub: id, ...accounts[id] }) } : undefined),
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  features: { devInteractions: { enabled: false } },
  cookies: { keys: ['a-key-for-tests-only'] },
});

const LOGIN_FORM = (uid) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test provider</title></head><body><main><h1>Test provider</h1>` +
  `<form method="post" action="/interaction/${uid}"><label for="login">Account</label><input id="login" name="login"><button type="submit">Continue</button></form></main></body></html>`;

async function interaction(req, res) {
  const { uid, prompt, params, session } = await provider.interactionDetails(req, res);
  if (prompt.name === 'login') {
    let login = params.login_hint;
    if (!login && req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += chunk;
      login = new URLSearchParams(body).get('login');
    }
    if (!login) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      return res.end(LOGIN_FORM(uid));
    }
    if (!accounts[login]) return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'unknown account' });
    return provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
  }
  const grant = new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  grant.addOIDCScope('openid email');
  return provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
}

const callback = provider.callback();
server.on('request', (req, res) => {
  if (!req.url.startsWith('/interaction/')) return callback(req, res);
  interaction(req, res).catch((error) => {
    res.statusCode = 500;
    res.end(String(error));
  });
});
process.stdout.write(`READY ${issuer}\n`);
