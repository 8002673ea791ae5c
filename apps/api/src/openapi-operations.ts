/**
 * A summary and a description for every operation of the OpenAPI document, keyed `METHOD /path`. A summary
 * set by a controller's decorator wins; the description comes from here. Public pages are keyed under
 * `/status/{url}`; their custom-domain twins at the root reuse those texts.
 */
const OPERATION_TEXTS: Record<string, readonly [summary: string, description: string]> = {
  'GET /healthz': ['Liveness', 'Answers 200 while the process runs; it checks no store. Point the orchestrator’s liveness probe here.'],
  'GET /readyz': ['Readiness', 'Answers 200 when both stores answer and no read model lags the log by more than VIGIL_READY_MAX_LAG events; 503 names what is behind. Point the load balancer here.'],
  'GET /metrics': ['Prometheus metrics', 'Requests, store calls, appends, the outbox and process figures in the Prometheus text format. With VIGIL_METRICS_TOKEN set, it wants that token as a bearer.'],

  'GET /next/accounts/{accountId}': ['The account the key acts on', 'What the checkly CLI reads first to check its key and account id. A key that does not grant the account is a 403.'],
  'GET /v1/accounts/ping-key': ['The account ping key', 'The key of slug ping URLs (`/ping/{pingKey}/{slug}`), issued by the first request of a READ_WRITE or ADMIN key; a READ_ONLY key reads it once issued (404 before).'],
  'POST /v1/accounts/ping-key': ['Rotate the account ping key', 'Issues a new key; slug URLs with the old one answer 404 at once. Token ping URLs are not affected.'],

  'GET /v1/status-pages/services': ['List services', 'The account’s services, newest first, with the heartbeat checks whose triggerIncident names each. Paged with limit and nextId.'],
  'POST /v1/status-pages/services': ['Create a service', 'A service is a part of your product shown on status pages (in cards) and named by incidents.'],
  'GET /v1/status-pages/services/{serviceId}': ['Get a service', 'The service with its checks. The ETag is its revision, for If-Match on a later write.'],
  'PUT /v1/status-pages/services/{serviceId}': ['Rename a service', 'Replaces the service’s name and description (left out: none); they show on every card and incident at once.'],
  'DELETE /v1/status-pages/services/{serviceId}': ['Delete a service', 'Refused with 409 while a card, an open incident or a maintenance window names the service.'],

  'GET /v1/status-pages': ['List status pages', 'The account’s status pages with their theme, cards, services and recent incidents, newest first. Paged with limit and nextId.'],
  'POST /v1/status-pages': ['Create a status page', 'A public page at /status/{url} (and at its customDomain), showing its cards of services. `url` and `customDomain` are unique across all accounts (409).'],
  'GET /v1/status-pages/{statusPageId}': ['Get a status page', 'The page with its cards, services and incidents. The ETag is its revision.'],
  'PUT /v1/status-pages/{statusPageId}': ['Replace a status page', 'Replaces the whole page (cards in the order sent). Send the ETag as If-Match to refuse overwriting someone else’s change.'],
  'PATCH /v1/status-pages/{statusPageId}': ['Change a status page', 'Changes only the fields sent; the others keep their values (null unsets an optional one, `cards` replaces all cards). The result is validated as a PUT body. Send the ETag as If-Match to refuse overwriting someone else’s change.'],
  'POST /v1/status-pages/{statusPageId}/custom-domain/check': ['Check the custom domain now', 'Looks for the proof of the page’s customDomain (the DNS TXT record or the HTTP token of customDomainVerification) at once instead of waiting for the periodic check. Once VERIFIED, the page answers at that domain and publicUrl names it.'],
  'DELETE /v1/status-pages/{statusPageId}': ['Delete a status page', 'Removes the page, frees its url and custom domain, and ends its subscriptions.'],
  'GET /v1/status-pages/{statusPageId}/subscriptions': ['List subscribers', 'Every subscriber of the page, oldest first, with its state (PENDING until the address confirms, then VERIFIED).'],
  'POST /v1/status-pages/{statusPageId}/subscriptions/bulk': ['Add subscribers', 'Adds email or webhook subscribers in one request; invalid addresses and duplicates are skipped and counted. New email addresses get a confirmation email unless autoVerify is true.'],
  'DELETE /v1/status-pages/{statusPageId}/subscriptions/{subscriptionId}': ['Remove a subscriber', 'The address may subscribe again later. If-Match compares with the page’s subscriptions revision.'],

  'GET /v1/status-pages/incidents': ['List incidents', 'The account’s incidents, newest first, optionally of one status page’s services. Paged with limit and nextId.'],
  'POST /v1/status-pages/incidents': ['Declare an incident', 'Creates an incident on some services with its first update (INVESTIGATING unless said otherwise). notifySubscribers on the update emails the confirmed subscribers of the pages showing those services.'],
  'GET /v1/status-pages/incidents/{incidentId}': ['Get an incident', 'The incident with its updates, newest first. `asOf` shows it as it stood at a past instant, rebuilt from its history.'],
  'PUT /v1/status-pages/incidents/{incidentId}': ['Replace an incident', 'Replaces name, severity and services; updates are changed through their own routes.'],
  'PATCH /v1/status-pages/incidents/{incidentId}': ['Change an incident', 'Changes only the fields sent (name, severity, services).'],
  'DELETE /v1/status-pages/incidents/{incidentId}': ['Delete an incident', 'Removes the incident from pages, feeds and lists; its history stays in the log.'],
  'GET /v1/status-pages/incidents/{incidentId}/history': ['An incident’s history', 'Every change of the incident, oldest first, with who made it and when.'],
  'GET /v1/status-pages/incidents/{incidentId}/incident-updates': ['List an incident’s updates', 'The updates of the incident, newest first.'],
  'POST /v1/status-pages/incidents/{incidentId}/incident-updates': ['Post an incident update', 'Adds an update (Markdown) with a status: INVESTIGATING, IDENTIFIED, MONITORING or RESOLVED. publicIncidentUpdateDate backfills when it happened; notifySubscribers emails the page subscribers.'],
  'GET /v1/status-pages/incidents/{incidentId}/incident-updates/{incidentUpdateId}': ['Get an incident update', 'One update of the incident.'],
  'PUT /v1/status-pages/incidents/{incidentId}/incident-updates/{incidentUpdateId}': ['Edit an incident update', 'Changes an update’s text, status or date; notifySubscribers keeps its value.'],
  'DELETE /v1/status-pages/incidents/{incidentId}/incident-updates/{incidentUpdateId}': ['Delete an incident update', 'Removes one update from the incident’s timeline.'],

  'GET /v1/incident-templates': ['List incident templates', 'The account’s incident templates, newest first. Paged with limit and nextId. A Vigil extension, after Statuspage’s incident templates.'],
  'POST /v1/incident-templates': ['Create an incident template', 'A template names the incident, its severity, affected services, first update and whether it notifies subscribers; the console’s declare form starts from one. Services must be the account’s, each once.'],
  'GET /v1/incident-templates/{templateId}': ['Get an incident template', 'The template with its services; a service deleted since it was saved is left out. The ETag is its revision.'],
  'PUT /v1/incident-templates/{templateId}': ['Replace an incident template', 'Replaces the whole template (services and notifySubscribers left out: none and false). Send the ETag as If-Match to refuse overwriting someone else’s change.'],
  'DELETE /v1/incident-templates/{templateId}': ['Delete an incident template', 'Removes the template; incidents declared from it are not affected.'],

  'GET /v1/checks': ['List checks', 'The account’s heartbeat checks, newest first. Paged with limit and nextId.'],
  'POST /v1/checks/heartbeat': ['Create a heartbeat check', 'A check expecting a ping every period (or on a cron schedule in a time zone), with a grace time. The answer holds heartbeat.pingUrl, the URL the job calls.'],
  'PUT /v1/checks/heartbeat/{checkId}': ['Replace a heartbeat check', 'Replaces the whole configuration. An empty pingToken keeps the current one, so ping URLs in cron jobs keep working.'],
  'GET /v1/checks/{checkId}': ['Get a check', 'The check with its configuration, ping URL and next due time. The ETag is its revision.'],
  'DELETE /v1/checks/{checkId}': ['Delete a check', 'Stops its timer and frees its ping token; its events are kept for their retention.'],
  'POST /v1/checks/{checkId}/pause': ['Pause a check', 'No deadline until the next success or failure ping, which counts as received: for a job switched off for a while.'],
  'GET /v1/checks/heartbeats/{checkId}/events': ['A check’s recent events', 'The latest pings, run signals and failures, newest first (limit 1–10), with statistics.'],
  'GET /v1/checks/heartbeats/{checkId}/events/{eventId}': ['One event of a check', 'A ping, run signal or failure with the first 10,000 bytes of the body the job sent.'],
  'GET /v1/checks/heartbeats/{checkId}/availability': ['A check’s availability', 'The share of successful runs over a period (default the last 24 hours), from hourly and daily rollups.'],

  'GET /v1/maintenance-windows': ['List maintenance windows', 'The account’s maintenance windows, newest first. Paged with limit and nextId.'],
  'POST /v1/maintenance-windows': ['Plan a maintenance window', 'Planned downtime: checks sharing one of its tags do not fail or alert during it, and the status pages of its services show it. It may repeat every N days, weeks or months, keeping local times in its time zone.'],
  'GET /v1/maintenance-windows/{windowId}': ['Get a maintenance window', 'The window with its repeat rule. The ETag is its revision.'],
  'PUT /v1/maintenance-windows/{windowId}': ['Replace a maintenance window', 'Replaces the whole window.'],
  'DELETE /v1/maintenance-windows/{windowId}': ['Delete a maintenance window', 'Removes the window; checks and pages no longer treat its times as maintenance.'],

  'POST /accounts/{accountId}/ai/agents/stream': ['Ask the assistant', 'A conversation in, a streamed answer out, about the account’s incidents, status pages, services, checks and availability. The built-in provider answers common questions without a network.'],

  'GET /v1/alert-channels': ['List alert channels', 'The account’s alert channels (secrets masked), newest first, with the checks each follows. Paged with limit and nextId.'],
  'POST /v1/alert-channels': ['Create an alert channel', 'Where alerts go: EMAIL, SLACK, WEBHOOK (also Teams, Telegram, Discord and ntfy shapes), PAGERDUTY or OPSGENIE. `subscriptions` may subscribe it to checks at once.'],
  'GET /v1/alert-channels/{id}': ['Get an alert channel', 'The channel with its settings (secrets masked) and subscriptions. The ETag is its revision.'],
  'PUT /v1/alert-channels/{id}': ['Replace an alert channel', 'Replaces the channel’s settings; send the ETag as If-Match to refuse overwriting someone else’s change.'],
  'DELETE /v1/alert-channels/{id}': ['Delete an alert channel', 'Removes the channel and its subscriptions to checks.'],
  'PUT /v1/alert-channels/{id}/subscriptions': ['Subscribe an alert channel to a check', 'Turns the channel’s subscription to one check on or off.'],
  'POST /v1/alert-channels/{id}/test': ['Send a test alert', 'Queues a test notification through the channel; follow it in the delivery log under the returned id.'],
  'GET /v1/alert-notifications': ['The delivery log', 'Every alert and subscriber notification with its attempts and last error, newest first; filter by check, channel, status or time. Paged with limit and nextId.'],
  'POST /v1/alert-notifications/{id}/retry': ['Retry a failed notification', 'Makes a FAILED notification pending again, due now, with a fresh set of attempts; other states are answered as they are.'],

  'GET /ping/{pingToken}': ['Ping a heartbeat check', 'Records a successful run of the check whose token this is, committed before the answer. No API key: the token is the credential. Link previews are refused (403).'],
  'POST /ping/{pingToken}': ['Ping a heartbeat check with output', 'As the GET, and the first 10,000 bytes of the body (any type, up to 100 KB) are stored with the event.'],
  'GET /heartbeats/ping/{pingToken}': ['Ping a heartbeat check (alias)', 'The same as GET /ping/{pingToken}, under the path Checkly’s heartbeat URLs use.'],
  'POST /heartbeats/ping/{pingToken}': ['Ping a heartbeat check with output (alias)', 'The same as POST /ping/{pingToken}.'],
  'GET /ping/{pingToken}/{segment}': ['Send a run signal, or ping by slug', 'After a token: `start`, `fail`, `log` or an exit code (0 success, 1–255 failure). After an account ping key: the check’s slug (`?create=1` creates it on its first ping).'],
  'POST /ping/{pingToken}/{segment}': ['Send a run signal with output, or ping by slug', 'As the GET, with the body’s first 10,000 bytes stored with the event.'],
  'GET /ping/{pingToken}/{segment}/{signal}': ['Send a run signal by slug', 'An account ping key, a check’s slug and `start`, `fail`, `log` or an exit code.'],
  'POST /ping/{pingToken}/{segment}/{signal}': ['Send a run signal by slug with output', 'As the GET, with the body’s first 10,000 bytes stored with the event.'],

  'GET /_vigil/{file}': ['Public page assets', 'Vigil’s stylesheet and icon for public pages, cached for a year.'],
  'GET /status/{url}': ['The public status page', 'Server-rendered HTML without JavaScript: the banner, open incidents, maintenance, cards of services with 90 days of uptime, recent incidents and the subscribe form.'],
  'GET /status/{url}/history': ['Past incidents', 'Incidents of the page’s services, 90 days a page, newest first.'],
  'GET /status/{url}/incidents/{incidentId}': ['One public incident', 'An incident of the page’s services with its updates.'],
  'GET /status/{url}/history.rss': ['Incident feed (RSS)', 'One entry per incident, its updates newest first.'],
  'GET /status/{url}/history.atom': ['Incident feed (Atom)', 'One entry per incident, its updates newest first.'],
  'GET /status/{url}/api/v2/{resource}': ['Statuspage-compatible JSON', 'summary, status, components, incidents and scheduled maintenances in Statuspage’s public v2 shape, so existing widgets read them.'],
  'GET /status/{url}/api/v2/{resource}/{subresource}': ['Statuspage-compatible JSON (filtered)', 'Unresolved incidents, upcoming and active maintenances in Statuspage’s public v2 shape.'],
  'GET /status/{url}/badge.svg': ['Status badge (SVG)', 'The page’s, or one service’s, current status as an SVG badge.'],
  'GET /status/{url}/badge.json': ['Status badge (shields.io)', 'The current status as shields.io endpoint JSON.'],
  'GET /status/{url}/theme/{file}': ['The page’s theme stylesheet', 'CSS with the page’s colours.'],
  'POST /status/{url}/subscribe': ['Subscribe by email', 'The subscribe form: sends a confirmation email (double opt-in). The answer is the same whether or not the address was subscribed.'],

  'GET /subscriptions/confirm/{token}': ['Confirmation page', 'Shows a button that confirms the subscription; the GET itself changes nothing, since mail scanners follow links.'],
  'POST /subscriptions/confirm/{token}': ['Confirm a subscription', 'Confirms the email subscription of the signed link (valid 48 hours, once).'],
  'GET /subscriptions/unsubscribe/{token}': ['Unsubscribe page', 'Shows a button that unsubscribes; the GET itself changes nothing.'],
  'POST /subscriptions/unsubscribe/{token}': ['Unsubscribe', 'Ends the subscription at once (RFC 8058 one-click unsubscribe from mail clients).'],
};

/** The texts of an operation: its own key, or the /status/{url} twin of a custom-domain route. */
export function operationTexts(method: string, path: string): readonly [string, string] | undefined {
  const key = `${method.toUpperCase()} ${path}`;
  const own = OPERATION_TEXTS[key];
  if (own) return own;
  const twin = OPERATION_TEXTS[`${method.toUpperCase()} /status/{url}${path === '/' ? '' : path}`];
  return twin && [twin[0], `${twin[1]} Served at the root of the page’s customDomain.`];
}
