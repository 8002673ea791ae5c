import { FastifyReply } from 'fastify';

/** Console pages: Vigil's own stylesheet, forms posting back here only, never framed, never kept by caches. */
export const CONSOLE_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on this site's own forms.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex',
};

export function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.status(status).headers(CONSOLE_HEADERS).type('text/html; charset=utf-8').send(html);
}

/** After a form: back to a page by GET (303), so a reload does not post again. */
export function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.status(303).headers(CONSOLE_HEADERS).header('location', location).send();
}

/** A form field: the first value of that name, as text. */
export function field(body: unknown, name: string): string {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : '';
}
