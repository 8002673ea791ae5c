import * as grpc from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { ServerFeaturesService } from '@eventstore/db-client/generated/serverfeatures_grpc_pb';
import { SupportedMethod, SupportedMethods } from '@eventstore/db-client/generated/serverfeatures_pb';
import { StreamsService } from '@eventstore/db-client/generated/streams_grpc_pb';
import { AllStreamPosition, StreamIdentifier, UUID } from '@eventstore/db-client/generated/shared_pb';
import { AppendResp, BatchAppendReq, BatchAppendResp, ReadReq, ReadResp } from '@eventstore/db-client/generated/streams_pb';

/** What each kind of call does; change it between calls to inject a fault. */
export interface EsdbFaults {
  /** Method discovery: answer (advertising batch appends) or accept the call and never answer. */
  features: 'answer' | 'silent';
  /**
   * Reads: serve synthetic events, accept and never answer, fail UNAVAILABLE after `dropAfter` events, say
   * the stream does not exist, or be an empty log (no stream exists, `$all` has nothing).
   */
  read: 'serve' | 'silent' | 'drop' | 'not-found' | 'empty';
  /** Appends (batch and unary): succeed, or accept and never answer. */
  append: 'serve' | 'silent';
}

export interface EsdbFaultServerOptions {
  /** Size of each event's data, so that unread events fill HTTP/2 flow-control windows as real ones do. */
  eventBytes?: number;
  /** Most events one read sends, whatever count it asked for. */
  maxEventsPerRead?: number;
  dropAfter?: number;
  /** Where to listen; 0 (the default) picks a free port. */
  port?: number;
  /** Sends `maxEventsPerRead` events whatever count a read asked for, so that every read the client stops is still open on the server. */
  overSend?: boolean;
}

/**
 * A fault injector for the EventStoreDB client: serves the gRPC services shipped with
 * `@eventstore/db-client` (streams and server features) on 127.0.0.1 and can stall or drop them.
 * It is not an event store: reads return synthetic `heartbeat-fault` events. It counts the calls it
 * has open, so a test can see a client that never cancels what it stopped reading.
 */
export class EsdbFaultServer {
  readonly faults: EsdbFaults = { features: 'answer', read: 'serve', append: 'serve' };
  /** Calls the server has accepted and not yet finished or seen cancelled. */
  readonly open = new Set<object>();
  readsStarted = 0;
  /** Every event appended, as the client sent it. */
  readonly appended: { stream: string; type: string; data: unknown }[] = [];
  cancelled = 0;
  private head = 1_000_000n;
  /** Calls held unanswered on purpose. */
  private readonly silent = new Set<EventEmitter>();

  private constructor(
    private readonly server: grpc.Server,
    readonly port: number,
    private readonly options: Required<EsdbFaultServerOptions>,
  ) {}

  static async start(options: EsdbFaultServerOptions = {}): Promise<EsdbFaultServer> {
    const server = new grpc.Server();
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`127.0.0.1:${options.port ?? 0}`, grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    const fault = new EsdbFaultServer(server, port, { eventBytes: 2048, maxEventsPerRead: 200, dropAfter: 3, overSend: false, port: 0, ...options });
    server.addService(ServerFeaturesService, { getSupportedMethods: fault.getSupportedMethods });
    server.addService(StreamsService, {
      read: fault.read,
      append: fault.append,
      batchAppend: fault.batchAppend,
      delete: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => callback({ code: grpc.status.UNIMPLEMENTED }),
      tombstone: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => callback({ code: grpc.status.UNIMPLEMENTED }),
    });
    return fault;
  }

  /** A connection string for the client: plain text, one node, no discovery. */
  get url(): string {
    return `esdb://127.0.0.1:${this.port}?tls=false`;
  }

  /** Stops gracefully: GOAWAY to every client, then waits for open calls (a server restart). */
  async shutdown(): Promise<void> {
    await new Promise<void>((resolve) => this.server.tryShutdown(() => resolve()));
  }

  /** Stops at once, cutting every connection (a server that goes away). */
  async close(): Promise<void> {
    this.server.forceShutdown();
  }

  private track(call: EventEmitter): () => void {
    const token = {};
    this.open.add(token);
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      this.open.delete(token);
      this.silent.delete(call);
    };
    call.on('cancelled', () => {
      this.cancelled += 1;
      finish();
    });
    call.on('close', finish);
    call.on('finish', finish);
    call.on('error', finish);
    return finish;
  }

  private readonly getSupportedMethods = (call: grpc.ServerUnaryCall<unknown, SupportedMethods>, callback: grpc.sendUnaryData<SupportedMethods>): void => {
    const finish = this.track(call);
    if (this.faults.features === 'silent') return void this.silent.add(call);
    const methods = new SupportedMethods();
    methods.setEventStoreServerVersion('24.10.0');
    for (const name of ['read', 'append', 'batchappend']) {
      const method = new SupportedMethod();
      method.setServiceName('event_store.client.streams.streams');
      method.setMethodName(name);
      methods.addMethods(method);
    }
    finish();
    callback(null, methods);
  };

  private readonly read = async (call: grpc.ServerWritableStream<ReadReq, ReadResp>): Promise<void> => {
    const finish = this.track(call);
    this.readsStarted += 1;
    if (this.faults.read === 'silent') return void this.silent.add(call);
    if (this.faults.read === 'empty' && !call.request.getOptions()?.hasStream()) {
      call.end();
      return finish();
    }
    if (this.faults.read === 'not-found' || this.faults.read === 'empty') {
      const response = new ReadResp();
      const notFound = new ReadResp.StreamNotFound();
      const stream = new StreamIdentifier();
      stream.setStreamName(Buffer.from('heartbeat-fault'));
      notFound.setStreamIdentifier(stream);
      response.setStreamNotFound(notFound);
      call.write(response);
      call.end();
      return finish();
    }
    const options = call.request.getOptions();
    const backwards = options?.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
    const asked = options?.hasCount() ? Number(options.getCount()) : this.options.maxEventsPerRead;
    const count = this.options.overSend ? this.options.maxEventsPerRead : Math.min(asked, this.options.maxEventsPerRead);
    const dropAfter = this.faults.read === 'drop' ? this.options.dropAfter : Infinity;
    let cancelled = false;
    const cancellation = new Promise<void>((resolve) =>
      call.once('cancelled', () => {
        cancelled = true;
        resolve();
      }),
    );
    for (let index = 0; index < count && !cancelled; index++) {
      if (index === dropAfter) {
        call.emit('error', { code: grpc.status.UNAVAILABLE, details: 'dropped by the fault server' });
        return finish();
      }
      const position = backwards ? this.head - BigInt(index) : this.head - BigInt(count) + BigInt(index) + 1n;
      // Honour flow control, as a real server must: an unread response stalls here, and the call stays open.
      if (!call.write(this.eventAt(position, index))) await Promise.race([new Promise((resolve) => call.once('drain', resolve)), cancellation]);
    }
    if (!cancelled) call.end();
    finish();
  };

  private readonly batchAppend = (call: grpc.ServerDuplexStream<BatchAppendReq, BatchAppendResp>): void => {
    this.track(call);
    let proposed = 0;
    let stream = '';
    call.on('data', (request: BatchAppendReq) => {
      const options = request.getOptions();
      if (options) stream = Buffer.from(options.getStreamIdentifier()?.getStreamName_asU8() ?? []).toString('utf8');
      for (const message of request.getProposedMessagesList()) {
        const data = Buffer.from(message.getData_asU8()).toString('utf8');
        this.appended.push({ stream, type: message.getMetadataMap().get('type') ?? '', data: JSON.parse(data || 'null') });
      }
      proposed += request.getProposedMessagesList().length;
      if (!request.getIsFinal()) return;
      if (this.faults.append === 'silent') return void this.silent.add(call);
      const response = new BatchAppendResp();
      response.setCorrelationId(request.getCorrelationId());
      response.setStreamIdentifier(request.getOptions()?.getStreamIdentifier());
      const success = new BatchAppendResp.Success();
      success.setCurrentRevision(String(proposed - 1));
      success.setPosition(this.nextPosition());
      response.setSuccess(success);
      proposed = 0;
      call.write(response);
    });
    call.on('end', () => call.end());
  };

  private readonly append = (call: grpc.ServerReadableStream<unknown, AppendResp>, callback: grpc.sendUnaryData<AppendResp>): void => {
    const finish = this.track(call);
    let proposed = 0;
    call.on('data', () => (proposed += 1));
    call.on('end', () => {
      if (this.faults.append === 'silent') return void this.silent.add(call);
      const response = new AppendResp();
      const success = new AppendResp.Success();
      success.setCurrentRevision(String(proposed - 2));
      const position = new AppendResp.Position();
      const at = this.nextPosition();
      position.setCommitPosition(at.getCommitPosition());
      position.setPreparePosition(at.getPreparePosition());
      success.setPosition(position);
      response.setSuccess(success);
      finish();
      callback(null, response);
    });
  };

  private nextPosition(): AllStreamPosition {
    this.head += 1n;
    const position = new AllStreamPosition();
    position.setCommitPosition(String(this.head));
    position.setPreparePosition(String(this.head));
    return position;
  }

  private eventAt(position: bigint, index: number): ReadResp {
    const id = new UUID();
    id.setString(randomUUID());
    const stream = new StreamIdentifier();
    stream.setStreamName(Buffer.from('heartbeat-fault'));
    const recorded = new ReadResp.ReadEvent.RecordedEvent();
    recorded.setId(id);
    recorded.setStreamIdentifier(stream);
    recorded.setStreamRevision(String(index));
    recorded.setCommitPosition(String(position));
    recorded.setPreparePosition(String(position));
    recorded.getMetadataMap().set('type', 'HeartbeatPingReceived');
    recorded.getMetadataMap().set('content-type', 'application/json');
    recorded.getMetadataMap().set('created', String(BigInt(Date.now()) * 10_000n));
    recorded.setData(Buffer.from(JSON.stringify({ note: 'x'.repeat(this.options.eventBytes) })));
    recorded.setCustomMetadata(Buffer.from(JSON.stringify({ occurredAt: new Date().toISOString() })));
    const event = new ReadResp.ReadEvent();
    event.setEvent(recorded);
    event.setCommitPosition(String(position));
    const response = new ReadResp();
    response.setEvent(event);
    return response;
  }
}
