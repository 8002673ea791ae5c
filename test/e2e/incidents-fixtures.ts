import { HttpClient, HttpResponse, RequestOptions } from '../../libs/testing/src/http-client';
import { TestAccount, TestServer } from '../../libs/testing/src/test-server';

export const INCIDENTS = '/v1/status-pages/incidents';
/** The e2e files make many requests with one key; the rate limit has its own tests. */
export const TEST_ENV = { VIGIL_RATE_LIMIT_PER_MINUTE: '1000000' };

/** A client bound to one API key, as a user of the API would hold it. */
export class Api {
  constructor(
    readonly http: HttpClient,
    readonly key: string,
  ) {}

  private opts(options: RequestOptions = {}): RequestOptions {
    return { key: this.key, ...options };
  }
  get<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>> {
    return this.http.get<T>(path, this.opts(options));
  }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<HttpResponse<T>> {
    return this.http.post<T>(path, body, this.opts(options));
  }
  put<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<HttpResponse<T>> {
    return this.http.put<T>(path, body, this.opts(options));
  }
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<HttpResponse<T>> {
    return this.http.patch<T>(path, body, this.opts(options));
  }
  delete<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>> {
    return this.http.delete<T>(path, this.opts(options));
  }

  async service(name: string): Promise<ServiceBody> {
    const response = await this.post('/v1/status-pages/services', { name });
    expect(response.status).toBe(201);
    return response.body;
  }

  /** Creates an incident and returns the 201 body. */
  async incident(services: { id: string }[], overrides: Record<string, unknown> = {}): Promise<IncidentBody> {
    const response = await this.post(INCIDENTS, incidentBody(services, overrides));
    expect(response.status).toBe(201);
    return response.body;
  }
}

export interface ServiceBody {
  id: string;
  accountId: string;
  name: string;
  created_at: string;
  updated_at: string;
  checks: { id: string; name: string }[];
}

export interface IncidentUpdateBody {
  id: string;
  description: string;
  status: string;
  publicIncidentUpdateDate: string;
  notifySubscribers: boolean;
  created_at: string;
}

export interface IncidentBody {
  id: string;
  name: string;
  severity: string;
  lastUpdateStatus: string;
  services: ServiceBody[];
  incidentUpdates: IncidentUpdateBody[];
  created_at: string;
  updated_at: string;
}

export function incidentBody(services: { id: string }[], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Elevated API error rates',
    severity: 'MAJOR',
    services: services.map((s) => ({ id: s.id })),
    incidentUpdates: [{ description: 'We are investigating.' }],
    ...overrides,
  };
}

export async function accountWithApi(server: TestServer, name?: string): Promise<{ account: TestAccount; api: Api }> {
  const account = await server.account(name);
  return { account, api: new Api(server.http, account.key) };
}

export const UNKNOWN_ID = '01900000-0000-7000-8000-000000000000';
