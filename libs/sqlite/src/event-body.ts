import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { RecordedEvent } from '../../core/src/event';
import { decodePingBody, encodePingBody, isPingBody } from './ping-body';

// An event's body in the embedded log: JSON text, deflated JSON, or a plain ping's compact form (ping-body.ts).

/**
 * Deflate's preset dictionary: text events share (keys, types, ids' and timestamps' shapes), so a
 * ping's ~320 characters become ~130 bytes. Never change it: every stored body depends on it.
 */
const BODY_DICTIONARY = Buffer.from(
  '["HeartbeatScheduleChanged",{"pingToken":"","periodMs":60000,"graceMs":0,"activated":true,"deleted":false,"restartAt":null,"checkRevision":0},' +
    '["HeartbeatFailed",{"eventId":"","deadline":"","first":true},"watchdog"' +
    '{"accountId":"","keyId":null,"keyName":null,"requestId":"","occurredAt":"2026-01-01T00:00:00.000Z"}]' +
    '["HeartbeatPingReceived",{"eventId":"019","checkId":"","state":"RECEIVED","at":"2026-01-01T00:00:00.000Z","source":null,"userAgent":null}',
);

/**
 * A 1 KiB window holds the dictionary and a whole event, and small buffers keep each call cheap; 1 KiB
 * output chunks come from Node's buffer pool, where the default 16 KiB chunk is an external allocation per call.
 */
const DEFLATE = { dictionary: BODY_DICTIONARY, windowBits: 10, memLevel: 2, chunkSize: 1024 };
const INFLATE = { dictionary: BODY_DICTIONARY, windowBits: 10, chunkSize: 1024 };

/**
 * The `runs` dictionary: the shared one and, nearest the event, a monitor run's compact shape with no actor,
 * so a run event is ~50 bytes. Never change it either.
 */
const RUN_DICTIONARY = Buffer.concat([
  BODY_DICTIONARY,
  Buffer.from('["MonitorRunRecorded",{"r":"local P miiw0000 0 0,0,0,,0"},{"accountId":null,"keyId":null,"keyName":null,"requestId":null,"occurredAt":"2026-01-01T00:00:00.000Z"}]'),
]);
const RUN_DEFLATE = { ...DEFLATE, dictionary: RUN_DICTIONARY };
const RUN_INFLATE = { ...INFLATE, dictionary: RUN_DICTIONARY };

/** Whether a stream's bodies are deflated, and with which dictionary (`true` is `events`). */
export type DeflatePredicate = (stream: string) => boolean | 'events' | 'runs';

/** The metadata of an event written without an actor (a monitor's runs): in `runs` streams its body leaves it out, the `at` column says it. */
const actorless = (at: number) => `{"accountId":null,"keyId":null,"keyName":null,"requestId":null,"occurredAt":"${new Date(at).toISOString()}"}`;

export function encodeBody(deflate: DeflatePredicate, stream: string, text: string, event?: { type: string; data: unknown; metadata: unknown; at: number }): Buffer | string {
  const how = deflate(stream);
  if (how === 'runs' && event && Number.isFinite(event.at) && JSON.stringify(event.metadata) === actorless(event.at)) {
    return deflateRawSync(JSON.stringify([event.type, event.data]), RUN_DEFLATE);
  }
  if (how && how !== 'runs' && event) {
    const ping = encodePingBody(event.type, event.data, event.metadata);
    if (ping) return ping;
  }
  return how ? deflateRawSync(text, how === 'runs' ? RUN_DEFLATE : DEFLATE) : text;
}

export function decodeBody(body: Buffer | string, runs: boolean, at: number): [string, RecordedEvent['data'], RecordedEvent['metadata']] {
  if (typeof body !== 'string' && isPingBody(body)) return decodePingBody(body);
  const parsed = JSON.parse(typeof body === 'string' ? body : inflateRawSync(body, runs ? RUN_INFLATE : INFLATE).toString('utf8')) as unknown[];
  if (parsed.length === 2) parsed.push(JSON.parse(actorless(at)));
  return parsed as [string, RecordedEvent['data'], RecordedEvent['metadata']];
}
