import { createServer, Server, Socket } from 'node:net';
import { BSON } from 'mongodb';

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

/**
 * A fault injector for the MongoDB driver: speaks enough of the wire protocol (OP_QUERY handshakes,
 * OP_MSG commands) on 127.0.0.1 to let a client connect and start, then, once `stall()` is called,
 * accepts connections and bytes and never answers again — a MongoDB that stopped answering. It is not
 * a database: it keeps the last whole-document replacement per `_id` (what start-up writes and reads
 * back, like the cursor secret) and finds documents by `_id` only; any other query finds nothing.
 */
export class MongoFaultServer {
  private stalled = false;
  private readonly sockets = new Set<Socket>();
  private nextRequestId = 1;
  /** Commands answered, by name (a test can see the client was served before the stall). */
  readonly answered = new Map<string, number>();
  /** Per namespace, the last replacement of each `_id`. */
  private readonly kept = new Map<string, Map<string, Record<string, unknown>>>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<MongoFaultServer> {
    let instance: MongoFaultServer | null = null;
    const server = createServer((socket) => instance!.accept(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    instance = new MongoFaultServer(server, (server.address() as { port: number }).port);
    return instance;
  }

  /** From now on nothing is answered, on open connections or new ones. */
  stall(): void {
    this.stalled = true;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 4 && buffered.length >= buffered.readInt32LE(0)) {
        const length = buffered.readInt32LE(0);
        const message = buffered.subarray(0, length);
        buffered = buffered.subarray(length);
        if (this.stalled) continue;
        const reply = this.answer(message);
        if (reply) socket.write(reply);
      }
    });
  }

  private answer(message: Buffer): Buffer | null {
    const requestId = message.readInt32LE(4);
    const opCode = message.readInt32LE(12);
    if (opCode === OP_QUERY) {
      // flags, then the collection's name (a C string), skip and limit, then the command.
      const nameEnd = message.indexOf(0, 20);
      const command = BSON.deserialize(message.subarray(nameEnd + 9, nameEnd + 9 + message.readInt32LE(nameEnd + 9)));
      // Response flags, cursor id, starting from, documents returned.
      const fields = Buffer.alloc(20);
      fields.writeInt32LE(1, 16);
      return this.frame(requestId, OP_REPLY, fields, command);
    }
    if (opCode !== OP_MSG) return null;
    // flagBits, then sections: kind 0 is the command, kind 1 a document sequence (an update's `updates`).
    let offset = 20;
    let command: Record<string, unknown> | null = null;
    const sequences: Record<string, unknown[]> = {};
    while (offset < message.length) {
      const kind = message.readUInt8(offset);
      const size = message.readInt32LE(offset + 1);
      if (kind === 0) {
        command = BSON.deserialize(message.subarray(offset + 1, offset + 1 + size));
        offset += 1 + size;
        continue;
      }
      const nameEnd = message.indexOf(0, offset + 5);
      const docs: unknown[] = [];
      for (let at = nameEnd + 1; at < offset + 1 + size; at += message.readInt32LE(at)) docs.push(BSON.deserialize(message.subarray(at, at + message.readInt32LE(at))));
      sequences[message.toString('utf8', offset + 5, nameEnd)] = docs;
      offset += 1 + size;
    }
    if (command === null) return null;
    Object.assign(command, sequences);
    // Flag bits, then section kind 0.
    return this.frame(requestId, OP_MSG, Buffer.alloc(5), command);
  }

  /** A reply to `requestId`: the message header, the op's own fields, then the answer to `command`. */
  private frame(requestId: number, opCode: number, fields: Buffer, command: Record<string, unknown>): Buffer {
    const body = BSON.serialize(this.reply(command));
    const header = Buffer.alloc(16);
    header.writeInt32LE(16 + fields.length + body.length, 0);
    header.writeInt32LE(this.nextRequestId++, 4);
    header.writeInt32LE(requestId, 8);
    header.writeInt32LE(opCode, 12);
    return Buffer.concat([header, fields, body]);
  }

  /** Kept documents whose `_id` is `filter` (a string) or `{$in: [...]}`. */
  private byId(ns: string, filter: unknown): Record<string, unknown>[] {
    const kept = this.kept.get(ns);
    if (!kept) return [];
    const ids = typeof filter === 'string' ? [filter] : ((filter as { $in?: unknown[] } | undefined)?.$in ?? []);
    return ids.flatMap((id) => (typeof id === 'string' && kept.has(id) ? [kept.get(id)!] : []));
  }

  /** A standalone MongoDB 7.0. */
  private reply(command: Record<string, unknown>): Record<string, unknown> {
    const name = Object.keys(command)[0] ?? '';
    this.answered.set(name, (this.answered.get(name) ?? 0) + 1);
    const ns = `${String(command.$db ?? 'admin')}.${String(command[name])}`;
    switch (name.toLowerCase()) {
      case 'hello':
      case 'ismaster':
        return {
          helloOk: true,
          ismaster: true,
          isWritablePrimary: true,
          maxBsonObjectSize: 16 * 1024 * 1024,
          maxMessageSizeBytes: 48_000_000,
          maxWriteBatchSize: 100_000,
          localTime: new Date(),
          logicalSessionTimeoutMinutes: 30,
          connectionId: this.nextRequestId,
          minWireVersion: 0,
          maxWireVersion: 21,
          readOnly: false,
          ok: 1,
        };
      case 'find':
        return { cursor: { id: 0n, ns, firstBatch: this.byId(ns, (command.filter as { _id?: unknown } | undefined)?._id) }, ok: 1 };
      case 'aggregate':
      case 'listcollections':
      case 'listindexes':
        return { cursor: { id: 0n, ns, firstBatch: [] }, ok: 1 };
      case 'update': {
        const kept = this.kept.get(ns) ?? new Map<string, Record<string, unknown>>();
        this.kept.set(ns, kept);
        let n = 0;
        for (const { q, u } of (command.updates ?? []) as { q: { _id?: unknown }; u: Record<string, unknown> }[]) {
          if (typeof q._id !== 'string' || Object.keys(u).some((key) => key.startsWith('$'))) continue;
          kept.set(q._id, { ...u, _id: q._id });
          n += 1;
        }
        return { n, nModified: n, ok: 1 };
      }
      case 'insert':
      case 'delete':
        return { n: 0, ok: 1 };
      case 'findandmodify':
        return { value: null, lastErrorObject: { n: 0, updatedExisting: false }, ok: 1 };
      default:
        return { ok: 1 };
    }
  }
}
