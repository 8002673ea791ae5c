import { Inject, Module } from '@nestjs/common';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { PROJECTION_ENGINE } from '../../platform/src/tokens';
import { EmailSender } from '../../alerting/src/alerting.api';
import { ConsoleController } from './http/console.controller';
import { ConsoleSessions } from './http/console-sessions';
import { SignInController } from './http/sign-in.controller';
import { PasskeysController } from './http/passkeys.controller';
import { PasskeyCeremonies } from './http/passkey-ceremonies';
import { OidcController } from './http/oidc.controller';
import { OidcFlow } from './http/oidc-flow';
import { PEOPLE_PROJECTIONS } from './read/people.projections';
import { PeopleQueryHandler } from './read/people.queries';
import { ConsoleRenderer } from './render/console-renderer';
import { PeopleMail } from './send/people-mail';
import { PeopleActions } from './write/people-actions';
import { TeamCommandHandler } from './write/team.handler';
import { UserCommandHandler } from './write/user.handler';

/**
 * People (README, "How a team signs in"): users, memberships of accounts, invitations, sign-in links and console
 * sessions, all event-sourced. Sessions drive `/console`; API keys alone drive `/v1`.
 */
@Module({
  controllers: [SignInController, ConsoleController, PasskeysController, OidcController],
  providers: [PasskeyCeremonies, OidcFlow, UserCommandHandler, TeamCommandHandler, PeopleQueryHandler, PeopleActions, ConsoleSessions, ConsoleRenderer, PeopleMail, EmailSender],
  exports: [PeopleActions, ConsoleSessions, ConsoleRenderer],
})
export class PeopleModule {
  constructor(@Inject(PROJECTION_ENGINE) engine: ProjectionEngine) {
    for (const projection of PEOPLE_PROJECTIONS) engine.register(projection);
  }
}
