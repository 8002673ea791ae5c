import { randomInt } from 'node:crypto';

/** DNS messages (RFC 1035) for the record types DNS monitors ask about: a query out, the answers in. */

export const RECORD_CODES: Record<string, number> = { A: 1, NS: 2, CNAME: 5, SOA: 6, MX: 15, TXT: 16, AAAA: 28 };
const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE'];

export interface DnsAnswer {
  name: string;
  type: string;
  ttl: number;
  data: string | Record<string, unknown>;
}

export interface DnsResponse {
  id: number;
  rcode: string;
  answers: DnsAnswer[];
}

export function encodeQuery(name: string, type: string): { id: number; message: Buffer } {
  const id = randomInt(0, 65536);
  const labels = name.replace(/\.$/, '').split('.').filter((l) => l.length > 0);
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x0100, 2); // recursion desired
  header.writeUInt16BE(1, 4);
  const qname = Buffer.concat([...labels.map((l) => Buffer.concat([Buffer.from([Buffer.byteLength(l)]), Buffer.from(l)])), Buffer.from([0])]);
  const tail = Buffer.alloc(4);
  tail.writeUInt16BE(RECORD_CODES[type], 0);
  tail.writeUInt16BE(1, 2);
  return { id, message: Buffer.concat([header, qname, tail]) };
}

/** A name at `offset`, following compression pointers (at most 32, so a loop ends). */
function readName(buf: Buffer, offset: number): { name: string; next: number } {
  const labels: string[] = [];
  let next = -1;
  for (let jumps = 0; jumps < 32; jumps++) {
    const len = buf.readUInt8(offset);
    if (len === 0) return { name: labels.join('.'), next: next === -1 ? offset + 1 : next };
    if ((len & 0xc0) === 0xc0) {
      if (next === -1) next = offset + 2;
      offset = buf.readUInt16BE(offset) & 0x3fff;
      continue;
    }
    labels.push(buf.toString('utf8', offset + 1, offset + 1 + len));
    offset += 1 + len;
  }
  throw new Error('malformed name');
}

function readData(buf: Buffer, type: string, at: number, length: number): DnsAnswer['data'] {
  switch (type) {
    case 'A':
      return [...buf.subarray(at, at + 4)].join('.');
    case 'AAAA':
      return Array.from({ length: 8 }, (_, i) => buf.readUInt16BE(at + i * 2).toString(16)).join(':');
    case 'CNAME':
    case 'NS':
      return readName(buf, at).name;
    case 'MX':
      return { preference: buf.readUInt16BE(at), exchange: readName(buf, at + 2).name };
    case 'TXT': {
      const parts: string[] = [];
      for (let i = at; i < at + length; ) {
        const len = buf.readUInt8(i);
        parts.push(buf.toString('utf8', i + 1, i + 1 + len));
        i += 1 + len;
      }
      return parts.join('');
    }
    case 'SOA': {
      const mname = readName(buf, at);
      const rname = readName(buf, mname.next);
      const n = rname.next;
      return { mname: mname.name, rname: rname.name, serial: buf.readUInt32BE(n), refresh: buf.readUInt32BE(n + 4), retry: buf.readUInt32BE(n + 8), expire: buf.readUInt32BE(n + 12), minimum: buf.readUInt32BE(n + 16) };
    }
    default:
      return buf.toString('hex', at, at + length);
  }
}

export function decodeResponse(buf: Buffer): DnsResponse {
  if (buf.length < 12) throw new Error('short DNS message');
  const id = buf.readUInt16BE(0);
  const rcode = RCODES[buf.readUInt16BE(2) & 0x000f] ?? `RCODE${buf.readUInt16BE(2) & 0x000f}`;
  const qd = buf.readUInt16BE(4);
  const an = buf.readUInt16BE(6);
  let offset = 12;
  for (let i = 0; i < qd; i++) offset = readName(buf, offset).next + 4;
  const names = Object.fromEntries(Object.entries(RECORD_CODES).map(([k, v]) => [v, k]));
  const answers: DnsAnswer[] = [];
  for (let i = 0; i < an; i++) {
    const { name, next } = readName(buf, offset);
    const code = buf.readUInt16BE(next);
    const ttl = buf.readUInt32BE(next + 4);
    const length = buf.readUInt16BE(next + 8);
    const type = names[code] ?? `TYPE${code}`;
    answers.push({ name, type, ttl, data: readData(buf, type, next + 10, length) });
    offset = next + 10 + length;
  }
  return { id, rcode, answers };
}
