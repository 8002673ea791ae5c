import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { FastifyInstance, LogController } from 'fastify';
import { installBodyDrain } from '../../../libs/http/src/body-drain';
import { clientError, routerError, VigilExceptionFilter } from '../../../libs/http/src/error-filter';
import { IdempotencyGuard, installIdempotencyHooks } from '../../../libs/http/src/idempotency';
import { MAX_BODY_BYTES, registerJsonParser } from '../../../libs/http/src/json-body';
import { capConnectionsPerAddress, connectionDeadlines } from '../../../libs/http/src/connection-limits';
import { installRateLimit, RateLimiter } from '../../../libs/http/src/rate-limit';
import { requestIdFor } from '../../../libs/http/src/request-id';
import { logRequest } from '../../../libs/http/src/request-log';
import { BodyValidationPipe } from '../../../libs/http/src/validation';
import { ApiKeyLookup } from '../../../libs/accounts/src/accounts.api';
import { createLogger, NestPinoLogger, VigilLogger } from '../../../libs/platform/src/logger';
import { PlatformOptions } from '../../../libs/platform/src/platform.options';
import { RequestMetrics } from '../../../libs/platform/src/request-metrics';
import { AppModule } from './app.module';
import { createOpenApiDocument } from './openapi-document';

/** Callback-style hooks: an async hook costs every request a promise and a microtask turn. */
function installRequestLog(fastify: FastifyInstance, logger: VigilLogger, metrics: RequestMetrics): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.record(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    logRequest(logger, {
      reqId: String(request.id),
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: reply.elapsedTime,
      accountId: request.account?.accountId,
      keyId: request.account?.keyId,
    });
    done();
  });
}

/** Builds the whole API on the configured stores; `listen` is the caller's. */
export async function createApp(options: PlatformOptions): Promise<NestFastifyApplication> {
  const logger = options.logger ?? createLogger(options.config.logLevel);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // One line per request is written by installRequestLog, with the account and key.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: MAX_BODY_BYTES,
    genReqId: requestIdFor,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    frameworkErrors: routerError,
    clientErrorHandler: clientError,
    ...connectionDeadlines(options.config.traffic),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot({ ...options, logger }), adapter, {
    bodyParser: false,
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });
  const fastify: FastifyInstance = app.getHttpAdapter().getInstance();
  registerJsonParser(fastify);
  installBodyDrain(fastify);
  installRequestLog(fastify, logger, app.get(RequestMetrics));
  capConnectionsPerAddress(fastify.server, options.config.traffic);
  const { anonymousPerMinute, publicPerMinute } = options.config.traffic;
  installRateLimit(fastify, new RateLimiter({ perKeyPerMinute: options.config.rateLimitPerMinute, anonymousPerMinute, publicPerMinute }, app.get(ApiKeyLookup)));
  installIdempotencyHooks(fastify, app.get(IdempotencyGuard));
  app.useGlobalFilters(new VigilExceptionFilter(fastify));
  app.useGlobalPipes(new BodyValidationPipe());
  app.enableShutdownHooks();

  const document = createOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', customSiteTitle: 'Vigil API' });
  await app.init();
  return app;
}
