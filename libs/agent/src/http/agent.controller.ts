import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Account, AccountContext, AccountFromPath, ReadOnlySafe } from '../../../http/src/account-context';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { MAX_MESSAGES, MAX_TEXT_BYTES, parseAgentRequest } from '../domain/agent-messages';
import { AgentRunner } from '../providers/agent-runner';
import { encodeSse, encodeText, SSE_HEADERS, TEXT_HEADERS, wantsPlainText } from './stream-encoders';

const TEXT_PART: SchemaObject = { type: 'object', required: ['type', 'text'], properties: { type: { type: 'string', enum: ['text'] }, text: { type: 'string' } } };
const ROLE: SchemaObject = { type: 'string', enum: ['system', 'user', 'assistant'] };

const BODY_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['messages'],
  properties: {
    messages: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_MESSAGES,
      description: `The conversation; the last message is the user's. All text together at most ${MAX_TEXT_BYTES} bytes.`,
      items: {
        oneOf: [
          { type: 'object', required: ['role', 'content'], properties: { role: ROLE, content: { type: 'string' } } },
          {
            type: 'object',
            description: 'AI SDK UI message',
            required: ['role', 'parts'],
            properties: { id: { type: 'string' }, role: ROLE, parts: { type: 'array', items: TEXT_PART } },
          },
        ],
      },
    },
  },
};

@ApiTags('agent')
@ApiBearerAuth()
@Controller('accounts/:accountId/ai/agents')
export class AgentController {
  constructor(
    private readonly runner: AgentRunner,
    @Inject(LOGGER) private readonly logger: VigilLogger,
  ) {}

  /**
   * Validation happens before anything is written, so a bad body is an ordinary 400. The answer is
   * then handed to Fastify as a stream: its hooks still add x-request-id and the rate-limit headers
   * and write the request log line, and it destroys the stream when the client goes away.
   */
  @Post('stream')
  @HttpCode(200)
  @AccountFromPath('accountId')
  @ReadOnlySafe()
  @ApiParam({ name: 'accountId', description: 'The account the agent answers about; the API key must grant it' })
  @ApiBody({ schema: BODY_SCHEMA })
  @ApiProduces('text/event-stream', 'text/plain')
  @ApiOkResponse({
    description:
      'AI SDK UI message stream over SSE (header x-vercel-ai-ui-message-stream: v1): start, start-step, text-start, text-delta…, ' +
      'tool-input-available / tool-output-available, text-end, finish-step, finish, then [DONE]. With Accept: text/plain, the text alone.',
    content: {
      'text/event-stream': { schema: { type: 'string', example: 'data: {"type":"start","messageId":"…"}\n\n…data: [DONE]\n\n' } },
      'text/plain': { schema: { type: 'string' } },
    },
  })
  stream(
    @Account() account: AccountContext,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Readable {
    const messages = parseAgentRequest(body);
    const plain = wantsPlainText(request.headers.accept);

    // The request's own 'close' fires once its body is read; only the response's tells of a client gone away.
    const abort = new AbortController();
    const response = reply.raw;
    response.once('close', () => {
      if (response.writableFinished) return;
      abort.abort();
      this.logger.info({ reqId: request.id, accountId: account.accountId, keyId: account.keyId }, 'agent stream closed by the client');
    });

    const chunks = this.runner.run({ accountId: account.accountId, requestId: account.requestId, messages, signal: abort.signal });
    void reply.headers(plain ? TEXT_HEADERS : SSE_HEADERS);
    return Readable.from(plain ? encodeText(chunks) : encodeSse(chunks), { objectMode: false });
  }
}
