import { AnswerCache, keptJson } from './response-cache';

describe('AnswerCache', () => {
  const built = (value: string, extra: { keep?: boolean; validUntil?: number } = {}) => async () => ({ value, bytes: value.length, ...extra });

  it('serves the kept answer only under the token it was built with', async () => {
    const cache = new AnswerCache();
    expect(await cache.answer('k', 't1', 0, built('first'))).toBe('first');
    expect(await cache.answer('k', 't1', 0, built('second'))).toBe('first');
    expect(await cache.answer('k', 't2', 0, built('third'))).toBe('third');
    expect(await cache.answer('other', 't2', 0, built('own'))).toBe('own');
  });

  it('keeps nothing without a token, nothing a build marks as not to keep, nothing past its time', async () => {
    const cache = new AnswerCache();
    expect(await cache.answer('k', null, 0, built('a'))).toBe('a');
    expect(await cache.answer('k', null, 0, built('b'))).toBe('b');
    expect(await cache.answer('e', 't', 0, built('error', { keep: false }))).toBe('error');
    expect(await cache.answer('e', 't', 0, built('ok'))).toBe('ok');
    expect(await cache.answer('v', 't', 100, built('until 200', { validUntil: 200 }))).toBe('until 200');
    expect(await cache.answer('v', 't', 200, built('again'))).toBe('until 200');
    expect(await cache.answer('v', 't', 201, built('later'))).toBe('later');
  });

  it('keeps no failure', async () => {
    const cache = new AnswerCache();
    await expect(cache.answer('k', 't', 0, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.answer('k', 't', 0, built('fine'))).toBe('fine');
  });

  it('keeps JSON as UTF-8 bytes with its revision', () => {
    const { value, bytes } = keptJson({ name: 'é' }, 3n);
    expect(value.json.toString('utf8')).toBe('{"name":"é"}');
    expect(bytes).toBe(value.json.length);
    expect(value.revision).toBe(3n);
  });
});
