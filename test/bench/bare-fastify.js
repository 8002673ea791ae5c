'use strict';
// The baseline every Vigil figure is compared with: the same Fastify Vigil uses, doing nothing.
const fastify = require('fastify')({ logger: false });
fastify.get('/', async () => ({ hello: 'world' }));
fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
