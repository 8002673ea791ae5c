import { ManualClock } from '../../libs/core/src/clock';
import { PeopleActions } from '../../libs/people/src/people.api';
import { TestServer } from '../../libs/testing/src/test-server';

/** What a console request answered; redirects are not followed. */
export interface Answer {
  status: number;
  location: string | null;
  /** The session cookie's `name=value` when the answer set one. */
  cookie: string | null;
  setCookie: string | null;
  text: string;
}

/** A browser-like request: a form body (urlencoded), a cookie, and the headers a same-origin form sends. */
export async function consoleRequest(
  server: TestServer,
  method: 'GET' | 'POST',
  path: string,
  options: { cookie?: string | null; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(options.cookie ? { cookie: options.cookie } : {}) };
  let body: string | undefined;
  if (method === 'POST') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers.origin = server.url;
    headers['sec-fetch-site'] = 'same-origin';
    body = new URLSearchParams(options.form ?? {}).toString();
  }
  const response = await fetch(server.url + path, { method, headers: { ...headers, ...options.headers }, body, redirect: 'manual' });
  const setCookie = response.headers.get('set-cookie');
  return {
    status: response.status,
    location: response.headers.get('location'),
    cookie: setCookie ? setCookie.split(';')[0] : null,
    setCookie,
    text: await response.text(),
  };
}

/** The form token a console page carries. */
export function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('No form token on the page');
  return match[1];
}

/** The path and query of a link Vigil printed or mailed (its origin is VIGIL_PUBLIC_URL, not the test's port). */
export const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

/** The sign-in link in a mail (quoted-printable soft breaks undone). */
export function linkInMail(raw: string, path: string): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = new RegExp(`https?://[^\\s"<>]+${path.replace(/\//g, '\\/')}\\?token=[A-Za-z0-9_-]{43}`).exec(text);
  if (!match) throw new Error(`No ${path} link in the mail`);
  return match[0];
}

/** Signs a new member in the way a fresh install's first ADMIN does: created and given a link by the CLI's actions. */
export async function signedInMember(server: TestServer, email: string, accountId: string, role: 'ADMIN' | 'READ_WRITE' | 'READ_ONLY'): Promise<string> {
  const actions = server.app.get(PeopleActions);
  await actions.addMember(email, accountId, role, { accountId: null, keyName: 'test' });
  const { url } = await actions.signInLink(email, { accountId: null, keyName: 'test' });
  const used = await consoleRequest(server, 'POST', '/console/sign-in/link', { form: { token: new URL(url).searchParams.get('token')! } });
  if (used.status !== 303 || !used.cookie) throw new Error(`Sign-in failed: ${used.status}`);
  return used.cookie;
}

export const MINUTE = 60_000;
export const DAY = 86_400_000;
export type { ManualClock };
