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
