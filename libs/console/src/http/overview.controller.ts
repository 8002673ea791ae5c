import { Get, OnModuleDestroy, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ConsoleReads } from '../read/console-reads';
import { errorBody } from '../../../http/src/error-body';
import { CONSOLE_HEADERS, ConsoleAccess, ConsoleController } from './console-access';

/** How often an open overview's stream compares what it shows with the read models. */
const POLL_MS = 1000;
/** The stream asks again whether the session still stands (a revoked one stops) this often, in polls. */
const RECHECK_POLLS = 30;
/** A stream ends after this long; the browser's EventSource reconnects on its own. */
const STREAM_MS = 3_600_000;

/** The overview at `/console` and its change stream at `/console/events`. */
@ConsoleController('')
export class OverviewController implements OnModuleDestroy {
  private readonly streams = new Set<() => void>();

  constructor(
    private readonly access: ConsoleAccess,
    private readonly reads: ConsoleReads,
  ) {}

  @Get()
  async overview(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    if (!visit.accountId) return this.access.message(reply, 200, visit, 'No account yet', 'You are not a member of any account. Ask an ADMIN of your team to invite you.');
    const data = await this.reads.overview(visit.accountId);
    return this.access.render(reply, 200, visit, 'overview', { title: 'Overview', nav: 'overview' }, data);
  }

  /** Server-sent events: `change` whenever what the overview shows differs from what it showed. */
  @Get('events')
  async events(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.signedIn(request);
    if (!visit || !visit.accountId) return reply.status(401).headers(CONSOLE_HEADERS).type('application/json; charset=utf-8').send(JSON.stringify(errorBody(401, 'Sign in to follow the overview.')));
    const accountId = visit.accountId;
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { ...CONSOLE_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    let last = (await this.reads.overview(accountId)).version;
    raw.write(`retry: 2000\nevent: ready\ndata: ${last}\n\n`);
    let polls = 0;
    let busy = false;
    const end = () => {
      clearInterval(timer);
      clearTimeout(deadline);
      this.streams.delete(end);
      if (!raw.writableEnded) raw.end();
    };
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      void this.tick(request, accountId, ++polls, last)
        .then((version) => {
          if (version === null) return end();
          if (version !== last) raw.write(`event: change\ndata: ${version}\n\n`);
          else if (polls % 15 === 0) raw.write(': keep-alive\n\n');
          last = version;
        })
        .catch(() => end())
        .finally(() => (busy = false));
    }, POLL_MS);
    const deadline = setTimeout(end, STREAM_MS);
    this.streams.add(end);
    request.raw.on('close', end);
  }

  onModuleDestroy(): void {
    for (const end of [...this.streams]) end();
  }

  /** The overview's version now, or null when the session no longer stands. */
  private async tick(request: FastifyRequest, accountId: string, polls: number, last: string): Promise<string | null> {
    if (polls % RECHECK_POLLS === 0) {
      const visit = await this.access.signedIn(request);
      if (!visit || visit.accountId !== accountId) return null;
    }
    return (await this.reads.overview(accountId)).version ?? last;
  }
}
