import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ForbiddenError } from '../../../core/src/errors';
import { Public } from '../../../http/src/account-context';
import { RunnerKeyDoc } from '../read/runner-keys.projection';
import { RunnerLeases } from '../write/runner-leases';
import { parseLeaseBody, parseResultsBody } from './runner-body';
import { LEASE_BODY_SCHEMA, LEASE_SCHEMA, RESULTS_BODY_SCHEMA, RESULTS_SCHEMA } from './runner.schemas';

const BEARER = /^bearer[ \t]+([\x21-\x7e]{1,512})[ \t]*$/i;

/** What runner processes call, with a runner key rather than an API key. */
@ApiTags('monitors')
@ApiBearerAuth()
@Public()
@Controller('v1/runners')
export class RunnersController {
  constructor(private readonly leases: RunnerLeases) {}

  private key(authorization: string | undefined): Promise<RunnerKeyDoc> {
    return this.leases.authenticate(BEARER.exec(authorization ?? '')?.[1]);
  }

  private static same(key: RunnerKeyDoc, location: string): RunnerKeyDoc {
    if (key.location !== location) throw new ForbiddenError(`This runner key serves location ${key.location}`);
    return key;
  }

  @Post('lease')
  @HttpCode(200)
  @ApiOperation({ summary: 'Lease due runs (runners)', description: 'With a runner key. Records the runner as active and gives it the monitors on its location it owns among the active runners, each with its next round: the runner runs their rounds on its own timer up to leaseUntil. A full lease (no since, or the location’s runners changed) lists every held monitor, in pages: while continueAfter is set, the runner leases again at once with it as after; otherwise only those changed since the previous lease. A runner silent for longer than the lease loses its monitors to the others.' })
  @ApiBody({ schema: LEASE_BODY_SCHEMA })
  @ApiOkResponse({ schema: LEASE_SCHEMA })
  async lease(@Headers('authorization') authorization: string | undefined, @Body() body: unknown) {
    const key = await this.key(authorization);
    const { runner, location, request } = parseLeaseBody(body);
    return this.leases.lease(RunnersController.same(key, location), runner, request);
  }

  @Post('results')
  @HttpCode(200)
  @ApiOperation({ summary: 'Report runs (runners)', description: 'With a runner key. Records each run from the key’s location; a run of a monitor that is not on that location is answered in rejected.' })
  @ApiBody({ schema: RESULTS_BODY_SCHEMA })
  @ApiOkResponse({ schema: RESULTS_SCHEMA })
  async results(@Headers('authorization') authorization: string | undefined, @Body() body: unknown) {
    const key = await this.key(authorization);
    const { location, results } = parseResultsBody(body);
    return this.leases.report(RunnersController.same(key, location), results);
  }
}
