import { isDeliverableAddress } from './subscriber-address';

describe('isDeliverableAddress', () => {
  it('takes ordinary addresses and refuses malformed ones', () => {
    expect(isDeliverableAddress('ops@example.com')).toBe(true);
    expect(isDeliverableAddress('ops@localhost')).toBe(false);
    expect(isDeliverableAddress(`${'a'.repeat(250)}@example.com`)).toBe(false);
  });

  // Issue 23, item 3: validator.js threw URIError on these, which was a 500.
  it('refuses an address holding a lone UTF-16 surrogate instead of throwing', () => {
    for (const address of ['\ud800', 'a\ud800@example.com', 'a@exa\udfffmple.com']) {
      expect(() => isDeliverableAddress(address)).not.toThrow();
      expect(isDeliverableAddress(address)).toBe(false);
    }
  });
});
