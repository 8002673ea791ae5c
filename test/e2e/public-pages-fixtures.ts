import { TestAccount, TestServer } from '../../libs/testing/src/test-server';

export interface PageFixture {
  pageId: string;
  url: string;
  serviceIds: string[];
}

/** A page with `services` services on two cards, created through the API like a user would. */
export async function createPage(server: TestServer, account: TestAccount, url: string, options: { services?: number; serviceNames?: string[]; name?: string; customDomain?: string; extra?: Record<string, unknown> } = {}): Promise<PageFixture> {
  const key = { key: account.key };
  const serviceIds: string[] = [];
  const names = options.serviceNames ?? Array.from({ length: options.services ?? 2 }, (_, i) => `Service ${i + 1}`);
  for (const name of names) {
    const response = await server.http.post('/v1/status-pages/services', { name }, key);
    if (response.status !== 201) throw new Error(`service: ${response.status} ${response.text}`);
    serviceIds.push(response.body.id);
  }
  const half = Math.ceil(serviceIds.length / 2);
  const cards = [
    { name: 'Core', services: serviceIds.slice(0, half).map((id) => ({ id })) },
    { name: 'Edge', services: serviceIds.slice(half).map((id) => ({ id })) },
  ].filter((card) => card.services.length > 0);
  const body = { name: options.name ?? 'Acme', url, cards, ...(options.customDomain ? { customDomain: options.customDomain } : {}), ...options.extra };
  const response = await server.http.post('/v1/status-pages', body, key);
  if (response.status !== 201) throw new Error(`page: ${response.status} ${response.text}`);
  return { pageId: response.body.id, url, serviceIds };
}

export async function createIncident(
  server: TestServer,
  account: TestAccount,
  serviceIds: string[],
  options: { name?: string; severity?: string; updates?: { description: string; status?: string; publicIncidentUpdateDate?: string }[] } = {},
): Promise<string> {
  const response = await server.http.post(
    '/v1/status-pages/incidents',
    {
      name: options.name ?? 'Elevated errors',
      severity: options.severity ?? 'MAJOR',
      services: serviceIds.map((id) => ({ id })),
      incidentUpdates: options.updates ?? [{ description: 'We are looking into it.' }],
    },
    { key: account.key },
  );
  if (response.status !== 201) throw new Error(`incident: ${response.status} ${response.text}`);
  return response.body.id;
}

/** Posts the subscribe form the way a browser without JavaScript does. */
export function postForm(server: TestServer, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return server.http.request('POST', path, {
    rawBody: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

/**
 * Proves the page's custom domain the way an owner would with the HTTP method: a real HTTP server answers
 * the token at the well-known path, and the check (connected to it instead of the domain's port 80) runs now.
 */
export async function proveDomain(server: TestServer, account: TestAccount, pageId: string, serve: (token: string) => string | null = (token) => token): Promise<{ status: number; body: any }> {
  const page = await server.http.get(`/v1/status-pages/${pageId}`, { key: account.key });
  const token: string = page.body.customDomainVerification.http.body;
  const { createServer } = await import('node:http');
  const receiver = createServer((request, response) => {
    const body = request.url === '/.well-known/vigil-domain-verification' ? serve(token) : null;
    response.writeHead(body === null ? 404 : 200, { 'content-type': 'text/plain' }).end(body ?? 'not here');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { CustomDomainChecks } = await import('../../libs/status-pages/src/write/custom-domain-checks');
  const checks = server.app.get(CustomDomainChecks);
  const port = (receiver.address() as { port: number }).port;
  checks.httpTarget = () => ({ host: '127.0.0.1', port });
  try {
    return await server.http.post(`/v1/status-pages/${pageId}/custom-domain/check`, {}, { key: account.key });
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
}
