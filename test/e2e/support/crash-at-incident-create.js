'use strict';
// Preloaded into a child server (NODE_OPTIONS=--require): kill -9 the process once, right before
// (VIGIL_TEST_CRASH=before) or right after (=after) the first incident create sent on the command bus;
// VIGIL_TEST_CRASH_MARKER is written first, so the restarted process runs normally.
const { existsSync, writeFileSync } = require('node:fs');
const { CommandBus } = require('@nestjs/cqrs');

const when = process.env.VIGIL_TEST_CRASH;
const marker = process.env.VIGIL_TEST_CRASH_MARKER;
const execute = CommandBus.prototype.execute;
const creates = (command) => command.constructor.name === 'CreateIncidentCommand' || command.command?.type === 'CreateIncident';

CommandBus.prototype.execute = async function (command) {
  if (!when || !marker || existsSync(marker) || !creates(command)) return execute.call(this, command);
  writeFileSync(marker, when);
  if (when === 'before') process.kill(process.pid, 'SIGKILL');
  const result = await execute.call(this, command);
  process.kill(process.pid, 'SIGKILL');
  return result;
};
