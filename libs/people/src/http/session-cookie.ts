import { createHash } from 'node:crypto';
import { FastifyReply, FastifyRequest } from 'fastify';
import { isSecretShape } from '../domain/secrets';

/** The cookie's name: with `__Host-` (Secure, no Domain, Path=/) when the console is served over https. */
export function sessionCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? '__Host-vigil_session' : 'vigil_session';
}

/** The session secret a request carries, if it has the shape of one. */
export function sessionSecretOf(request: FastifyRequest, publicUrl: string): string | null {
  const name = sessionCookieName(publicUrl);
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    return isSecretShape(value) ? value : null;
  }
  return null;
}

/** Sets the session cookie: HttpOnly, SameSite=Lax, and Secure over https; it lives as long as the session may. */
export function setSessionCookie(reply: FastifyReply, publicUrl: string, secret: string, maxAgeSeconds: number): void {
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  void reply.header('set-cookie', `${sessionCookieName(publicUrl)}=${secret}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`);
}

export function clearSessionCookie(reply: FastifyReply, publicUrl: string): void {
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  void reply.header('set-cookie', `${sessionCookieName(publicUrl)}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`);
}

/** The form token of a session: derived from its secret, so only a page the session was shown can hold it. */
export function csrfTokenOf(sessionSecret: string): string {
  return createHash('sha256').update(`vigil-csrf:${sessionSecret}`, 'utf8').digest('base64url');
}

/**
 * Whether a state-changing request comes from a page of this site: `Sec-Fetch-Site` (when the browser
 * sends it) must be same-origin, and `Origin` (when sent) must be this host. Forms also carry a token.
 */
export function isSameOriginRequest(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host.toLowerCase() === String(request.headers.host ?? '').toLowerCase();
  } catch {
    return false;
  }
}
