import { decodeStoredDoc, encodeStoredDoc, storedText } from './stored-json';

describe('stored document text', () => {
  it('leaves out the leading id and puts it back first', () => {
    const doc = { id: 'c1|P|2026-11-21T23:57:31.697Z|e1', state: 'RECEIVED', source: null, n: 3, tags: ['a'] };
    const text = encodeStoredDoc(doc);
    expect(text).toBe('{"state":"RECEIVED","source":null,"n":3,"tags":["a"]}');
    const back = decodeStoredDoc(doc.id, text);
    expect(back).toEqual(doc);
    expect(Object.keys(back)).toEqual(Object.keys(doc));
  });

  it('keeps whole a document whose id is not its first member, or is all it has', () => {
    const late = { state: 'LATE', id: 'x' };
    expect(encodeStoredDoc(late)).toBe(JSON.stringify(late));
    expect(decodeStoredDoc('x', encodeStoredDoc(late))).toEqual(late);
    expect(encodeStoredDoc({ id: 'only' })).toBe('{"id":"only"}');
    expect(decodeStoredDoc('only', '{"id":"only"}')).toEqual({ id: 'only' });
  });

  it('reads text written whole, as rows of earlier versions are', () => {
    expect(decodeStoredDoc('a', '{"id":"a","status":"open"}')).toEqual({ id: 'a', status: 'open' });
  });

  it('round-trips ids that JSON escapes, and members named like the id', () => {
    for (const id of ['a"b', 'back\\slash', 'é|\u0001|\u2028', '']) {
      const doc = { id, idx: 1, 'id"': 2, nested: { id: 'inner' } };
      const text = encodeStoredDoc(doc);
      expect(text.startsWith('{"idx":')).toBe(true);
      expect(decodeStoredDoc(id, text)).toEqual(doc);
    }
  });

  it('strips only the exact id: a value that merely starts like it stays whole', () => {
    // A document claiming another id (or a longer one) than its key is never cut short.
    const doc = { id: 'ab', other: 1 };
    expect(decodeStoredDoc('ab', encodeStoredDoc(doc))).toEqual(doc);
    const text = JSON.stringify({ id: 'abc', other: 1 });
    expect(decodeStoredDoc('abc', text)).toEqual({ id: 'abc', other: 1 });
  });

  const isStringified = (text: string) => {
    try {
      return JSON.stringify(JSON.parse(text)) === text;
    } catch {
      return false;
    }
  };

  it('cuts exactly where the id and its comma end, for ids written raw or escaped alike', () => {
    // What storedText must return, spelled out the slow way: the encoded id, then a comma, or nothing cut.
    const expected = (id: string, json: string) => {
      const head = `{"id":${JSON.stringify(id)},`;
      return json.startsWith(head) ? `{${json.slice(head.length)}` : json;
    };
    const ids = ['', 'a', 'a","n":"x', 'a\\","n":"x', 'x\\', '\\\\', 'a\\"', 'a"', '"', '\\"b', '\ud800', 'é', 'c1|h|2026-11-22T01:00:00.000Z'];
    for (const id of ids) {
      const texts = [JSON.stringify({ id, n: 1 }), JSON.stringify({ id }), `{"id":"${id}","n":1}`, `{"id":"${id}"}`, `{"id":"${id}x","n":1}`, `{"id":"${id}\\\\","n":1}`, JSON.stringify({ id: 'a', n: 'x', m: 1 })];
      // Documents' JSON as JSON.stringify writes it (what it is given): other spellings are left out.
      for (const json of texts.filter(isStringified)) {
        expect(storedText(id, json)).toBe(expected(id, json));
      }
    }
  });
});
