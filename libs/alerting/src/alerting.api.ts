/** What other contexts and apps may use of alerting. */
export { AlertingModule } from './alerting.module';
export { RunAlertChannelCommand, type AlertChannelRun } from './write/alert-channel.handler';
export type { AlertChannelCommand, AlertChannelEvent } from './domain/alert-channel.decider';
export { AlertingQuery, type AlertingAnswers, type AlertingQuestion } from './read/alerting.queries';
export type { ChannelView } from './read/channel-directory';
export type { DeliveryDoc, DeliveryStatus, NotificationFilter } from './write/outbox';
/** The delivery log and its worker, for the CLI and the fault-injection tests. */
export { Outbox } from './write/outbox';
export { DeliveryWorker } from './write/delivery-worker';
export { DeliveryLogRetention } from './write/delivery-log-retention';
export { presentDelivery, type NotificationView } from './http/alert-notifications.controller';
export { retryDelivery } from './write/delivery-retry';
/** Offered to people: sign-in links go out through the same SMTP settings as alerts. */
export { EmailSender } from './send/email-sender';
/** Offered to the console: a channel form is checked by the API's own rules. */
export { CHANNEL_TYPES, OPSGENIE_PRIORITIES, OPSGENIE_REGIONS, parseChannelBody, WEBHOOK_METHODS, WEBHOOK_TYPES, type ChannelSettings, type ChannelType } from './domain/alert-channel';
export { resolvedTargetProblems } from './send/target-check';
