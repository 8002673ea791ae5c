/** The face of the people context: what other contexts and apps may use. */
export { PeopleModule } from './people.module';
export { RunUserCommand } from './write/user.handler';
export type { UserRunResult } from './write/user.handler';
export { RunTeamCommand } from './write/team.handler';
export type { TeamRunResult } from './write/team.handler';
export type { UserCommand, UserEvent, SessionData, SignInMethod, SessionEndReason } from './domain/user.decider';
export type { TeamCommand, TeamEvent } from './domain/team.decider';
export { PeopleQuery } from './read/people.queries';
export type { PeopleQuestion, PeopleAnswers, SessionView, InvitationView } from './read/people.queries';
export type { UserDoc, MemberDoc } from './read/people.projections';
/** Offered to the CLI (users create, login-link) and, later, the console. */
export { PeopleActions, SIGN_IN_LINK_MS, INVITATION_MS } from './write/people-actions';
export { ConsoleSessions } from './http/console-sessions';
export type { SignedIn } from './http/console-sessions';
export { isSameOriginRequest } from './http/session-cookie';
export { isEmailAddress, normalizeEmail } from './domain/secrets';
/** The console's HTML routes, for the OpenAPI document. */
export { consoleOpenApiPaths } from './http/console.openapi';
/** The console's page replies (headers, HTML, 303 after a form, form fields), shared with the console context. */
export { CONSOLE_HEADERS, field, redirect, sendHtml } from './http/console-reply';
/** The console's one layout, stylesheet and static files: every console page is compiled and rendered with it. */
export { ConsoleRenderer } from './render/console-renderer';
export type { NavLink, SessionChrome } from './render/console-renderer';
