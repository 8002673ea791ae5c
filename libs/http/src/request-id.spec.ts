import { IncomingMessage } from 'node:http';
import { requestIdFor } from './request-id';

const withHeader = (value?: string | string[]) => ({ headers: value === undefined ? {} : { 'x-request-id': value } }) as unknown as IncomingMessage;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('requestIdFor', () => {
  it.each(['abc-123', 'trace:0af7651916cd43dd.b7ad6b7169203331', 'A_b.c', 'x'.repeat(128)])('echoes a sane client id %j', (id) => {
    expect(requestIdFor(withHeader(id))).toBe(id);
  });

  it('makes a fresh UUID when there is none', () => {
    const a = requestIdFor(withHeader());
    const b = requestIdFor(withHeader());
    expect(a).toMatch(UUID);
    expect(a).not.toBe(b);
  });

  it.each(['', 'has space', 'line\nbreak', '<script>', 'x'.repeat(129)])('replaces an unsafe client id %j', (id) => {
    expect(requestIdFor(withHeader(id))).toMatch(UUID);
  });

  it('replaces a repeated header', () => {
    expect(requestIdFor(withHeader(['a', 'b']))).toMatch(UUID);
  });
});
