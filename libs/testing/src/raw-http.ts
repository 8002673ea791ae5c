import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: any;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Milliseconds until the request counts as hung (rejects). */
  timeoutMs?: number;
}

/**
 * One request on a connection of its own, through Node's http client: the whole body is written at
 * once, without waiting for `100 Continue` (as fetch and most SDKs do), and the path is sent exactly
 * as given (no URL normalisation).
 */
export function rawRequest(baseUrl: string, options: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers };
    // Node sends a GET or DELETE body with neither length nor chunking unless told its length.
    if (options.body !== undefined && !Object.keys(headers).some((name) => /^(content-length|transfer-encoding)$/i.test(name))) {
      headers['content-length'] = String(Buffer.byteLength(options.body));
    }
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: options.method, path: options.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${options.method} ${options.path.slice(0, 120)} did not answer within ${options.timeoutMs ?? 10_000} ms`));
    }, options.timeoutMs ?? 10_000);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(options.body);
  });
}

/**
 * A client that writes a whole request (headers and body) before it reads anything, on a plain TCP
 * socket: the status line it then reads, or '' when the connection was reset before it could (a
 * server that closes while the body is still arriving makes the kernel reset the connection).
 */
export function uploadThenRead(baseUrl: string, head: string, body: Buffer): Promise<{ statusLine: string; text: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.pause();
      socket.write(head);
      socket.write(body, () => socket.resume());
    });
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ statusLine: text.split('\r\n')[0], text }));
  });
}
