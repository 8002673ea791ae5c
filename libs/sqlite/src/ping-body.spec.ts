import { randomUUID } from 'node:crypto';
import { decodeBody, encodeBody } from './event-body';
import { decodePingBody, encodePingBody } from './ping-body';

const data = (extra: Record<string, unknown> = {}) => ({
  eventId: '019abcde-f012-7345-8678-9abcdef01234',
  checkId: '019abcde-0000-7000-8000-000000000001',
  state: 'RECEIVED',
  at: '2026-11-25T12:00:00.123Z',
  source: null,
  userAgent: 'curl/8.5.0',
  ...extra,
});
const metadata = (extra: Record<string, unknown> = {}) => ({
  accountId: '019abcde-0000-7000-8000-0000000000aa',
  keyId: null,
  keyName: null,
  requestId: 'b2c4e5f6-1234-4abc-9def-0123456789ab',
  occurredAt: '2026-11-25T12:00:00.125Z',
  ...extra,
});
const text = (type: string, d: unknown, m: unknown) => JSON.stringify([type, d, m]);

describe('a plain ping body', () => {
  it('is read back as the JSON it stands for, in well under the deflated size', () => {
    const body = encodePingBody('HeartbeatPingReceived', data(), metadata())!;
    const deflated = encodeBody(() => true, 'heartbeat-1', text('HeartbeatPingReceived', data(), metadata()));

    expect(body[0]).toBe(0x07);
    expect(body.length).toBeLessThan(105);
    expect(body.length).toBeLessThan(deflated.length - 20);
    expect(JSON.stringify(decodePingBody(body))).toBe(text('HeartbeatPingReceived', data(), metadata()));
  });

  it('gives back every value alike: nulls, UUIDs, states, timestamps and other text in any field', () => {
    const values = [
      null,
      randomUUID(),
      randomUUID().toUpperCase(),
      'RECEIVED',
      'FAILING',
      'received',
      new Date(0).toISOString(),
      '2026-11-25T12:00:00Z',
      '2026-11-25T12:00:00.000+00:00',
      '9999-12-31T23:59:59.999Z',
      'https://example.com/cron?x=1',
      'ünïcödé ✓',
      '',
      'x'.repeat(255),
    ];
    for (const [i, value] of values.entries()) {
      const d = data({ source: value, userAgent: values[(i + 3) % values.length], eventId: values[(i + 1) % values.length] });
      const m = metadata({ keyId: value, requestId: values[(i + 5) % values.length], accountId: values[(i + 7) % values.length] });
      const body = encodePingBody('HeartbeatPingReceived', d, m);
      expect(body).not.toBeNull();
      expect(JSON.stringify(decodePingBody(body!))).toBe(text('HeartbeatPingReceived', d, m));
    }
  });

  it('is not used for anything else: other types, other or more keys, other orders, numbers, long text, surrogates', () => {
    const { at, ...withoutAt } = data();
    const others: [string, unknown, unknown][] = [
      ['HeartbeatFailed', data(), metadata()],
      ['HeartbeatPingReceived', data({ rid: randomUUID() }), metadata()],
      ['HeartbeatPingReceived', data({ nextDueAt: null }), metadata()],
      ['HeartbeatPingReceived', { ...withoutAt, at }, metadata()],
      ['HeartbeatPingReceived', data(), metadata({ userId: randomUUID() })],
      ['HeartbeatPingReceived', data({ source: 3 }), metadata()],
      ['HeartbeatPingReceived', data({ userAgent: 'x'.repeat(256) }), metadata()],
      ['HeartbeatPingReceived', data({ userAgent: 'emoji 😀' }), metadata()],
      ['HeartbeatPingReceived', data({ userAgent: 'lone \ud800' }), metadata()],
      ['HeartbeatPingReceived', data(), null],
    ];
    for (const [type, d, m] of others) expect(encodePingBody(type, d, m)).toBeNull();
  });

  it('is what the event store writes for a plain ping in a deflated stream, and a body deflated before still reads', () => {
    const event = { type: 'HeartbeatPingReceived', data: data(), metadata: metadata(), at: Date.parse(metadata().occurredAt) };
    const json = text(event.type, event.data, event.metadata);
    const written = encodeBody(() => true, 'heartbeat-1', json, event) as Buffer;
    const before = encodeBody(() => true, 'heartbeat-1', json) as Buffer;

    expect(written[0]).toBe(0x07);
    expect(JSON.stringify(decodeBody(written, false, event.at))).toBe(json);
    expect(JSON.stringify(decodeBody(before, false, event.at))).toBe(json);
    // Not in a stream kept as text.
    expect(encodeBody(() => false, 'incident-1', json, event)).toBe(json);
  });
});
