import { cells, parseRows, toCsv } from './subscriber-rows';

const view = (type: 'EMAIL' | 'WEBHOOK', address: string, status: 'PENDING' | 'VERIFIED' = 'PENDING') => ({ id: 'x', type, address, status, created_at: '2026-04-01T08:00:00.000Z', updated_at: '2026-04-01T08:00:00.000Z' });

describe('subscriber rows', () => {
  it('reads bare addresses, typed rows and a header in any column order', () => {
    expect(parseRows('ann@example.com\n\nWEBHOOK, https://h.example.com/x\nemail,bob@example.com')).toEqual({
      rows: [{ type: 'EMAIL', address: 'ann@example.com' }, { type: 'WEBHOOK', address: 'https://h.example.com/x' }, { type: 'EMAIL', address: 'bob@example.com' }],
      errors: [],
    });
    expect(parseRows('address,type\r\ncy@example.com,EMAIL').rows).toEqual([{ type: 'EMAIL', address: 'cy@example.com' }]);
    expect(parseRows('email\ndee@example.com').rows).toEqual([{ type: 'EMAIL', address: 'dee@example.com' }]);
  });

  it('names every wrong line by its number and returns no row to write', () => {
    const { errors } = parseRows('type,address\nEMAIL,ok@example.com\nEMAIL,nope\nSMS,1\nWEBHOOK,http://plain.example.com\nEMAIL,');
    expect(errors).toEqual([
      'Line 3: "nope" is not an email address.',
      'Line 4: the type must be EMAIL or WEBHOOK, not "SMS".',
      'Line 5: "http://plain.example.com" is not an https URL.',
      'Line 6: no address.',
    ]);
  });

  it('bounds a list by lines and characters', () => {
    expect(parseRows('').errors).toEqual(['Give at least one subscriber.']);
    expect(parseRows(Array.from({ length: 101 }, (_, i) => `u${i}@ex.io`).join('\n')).errors[0]).toContain('At most 100 subscribers');
    expect(parseRows('a'.repeat(3501)).errors[0]).toContain('longer than 3500 characters');
  });

  it('splits quoted cells and reads back what it exports, formula guard included', () => {
    expect(cells('"a,b", "say ""hi""" ,c')).toEqual(['a,b', 'say "hi"', 'c']);
    const csv = toCsv([view('EMAIL', '-ann@example.com', 'VERIFIED'), view('WEBHOOK', 'https://h.example.com/a,b')]);
    expect(csv).toBe("type,address,status,created_at\r\nEMAIL,'-ann@example.com,VERIFIED,2026-04-01T08:00:00.000Z\r\nWEBHOOK,\"https://h.example.com/a,b\",PENDING,2026-04-01T08:00:00.000Z\r\n");
    expect(parseRows(csv)).toEqual({ rows: [{ type: 'EMAIL', address: '-ann@example.com' }, { type: 'WEBHOOK', address: 'https://h.example.com/a,b' }], errors: [] });
  });
});
