// The face of the status-pages context: other contexts and apps import only this file.
export { StatusPagesModule } from './status-pages.module';
export { RunStatusPageCommand } from './write/status-page.handler';
export { RunServiceCommand } from './write/service.handler';
export { RunSubscriptionsCommand, addedCount } from './write/subscriptions.handler';
export { StatusPagesQuery, StatusPagesQuestion, StatusPagesAnswers } from './read/status-pages.queries';
export type { StatusPageEvent } from './domain/status-page.decider';
export type { SubscriptionsCommand, SubscriptionsEvent, SubscriptionData, SubscriptionStatus, SubscriptionType } from './domain/subscriptions.decider';
export { addressKey } from './domain/subscriptions.decider';
export { isDeliverableAddress } from './domain/subscriber-address';
export { DEFAULT_THEME_COLORS, HEX_COLOR } from './domain/theme';
export type { DefaultTheme, ThemeColors, ThemeColorSet } from './domain/theme';
export type { StatusPageView, StatusPageDetailView } from './read/status-page-directory';
export type { ServiceView } from './read/service-directory';
export type { SubscriptionView } from './read/subscriptions.projection';
// Services offered to other contexts: reads of pages and services, and the registries they plug into.
export { StatusPageDirectory } from './read/status-page-directory';
export { ServiceDirectory } from './read/service-directory';
export { ServiceLinks, CheckRef } from './read/service-links';
export { PageIncidents, PageIncident } from './read/page-incidents';
export { EmailQuota } from './write/email-quota';
// The API's body rules and mappings: the console's forms validate with the same.
export { StatusPageBodyDto } from './http/status-page.dto';
export { ServiceBodyDto } from './http/service.dto';
export { MAX_BULK_SUBSCRIPTIONS } from './http/subscription.dto';
export { toPageInput } from './http/page-input';
export { THEME_COLOR_KEYS } from './domain/theme';
export { CustomDomainChecks } from './write/custom-domain-checks';
