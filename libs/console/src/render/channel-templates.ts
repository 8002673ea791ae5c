import { FIELD_ERROR, INVALID } from './console-templates';
import { historySection } from './audit-templates';
/** Handlebars sources of the alert channel screens, in people's console layout. Every value goes through `{{ }}` (escaped). */


/** A hint and an error both describe the field. */
const described = (name: string, hint: string) =>
  hint ? `{{#if errors.${name}}} aria-invalid="true"{{/if}} aria-describedby="${name}-hint{{#if errors.${name}}} ${name}-error{{/if}}"` : INVALID(name);
const hintOf = (name: string, hint: string) => (hint ? `<p class="muted" id="${name}-hint">${hint}</p>` : '');
const text = (name: string, label: string, hint = '') =>
  `<div><label for="${name}">${label}</label>${hintOf(name, hint)}${FIELD_ERROR(name)}<input type="text" id="${name}" name="${name}" value="{{values.text.${name}}}" autocomplete="off"${described(name, hint)}></div>`;
const area = (name: string, label: string, hint: string) =>
  `<div><label for="${name}">${label}</label>${hintOf(name, hint)}${FIELD_ERROR(name)}<textarea id="${name}" name="${name}" rows="3"${described(name, hint)}>{{values.text.${name}}}</textarea></div>`;
const select = (name: string, label: string, list: string) =>
  `<div><label for="${name}">${label}</label>${FIELD_ERROR(name)}<select id="${name}" name="${name}"${INVALID(name)}>{{#each ${list}}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{value}}</option>{{/each}}</select></div>`;
const flag = (name: string, label: string) =>
  `<div class="check"><input type="checkbox" id="${name}" name="${name}" value="on"{{#if values.flags.${name}}} checked{{/if}}><label for="${name}">${label}</label></div>`;

const SECRET_HINT = 'Shown masked. Leave the mask to keep the stored value; type a new one to replace it.';

/** The fields of one channel type, then what it is sent for and the checks it alerts for. */
const CHANNEL_FIELDS = `<input type="hidden" name="csrf" value="{{csrf}}">
{{#if errors}}<p class="error" role="alert">Nothing was saved: correct the fields marked below.</p>{{/if}}
${FIELD_ERROR('type')}
{{#if isEMAIL}}<div><label for="address">Email address</label>${FIELD_ERROR('address')}<input type="email" id="address" name="address" maxlength="254" value="{{values.text.address}}" autocomplete="off"${INVALID('address')}></div>{{/if}}
{{#if isSLACK}}${text('url', 'Incoming webhook URL', SECRET_HINT)}${text('channel', 'Channel (optional)')}{{/if}}
{{#if isWEBHOOK}}${text('name', 'Name')}${text('url', 'URL', 'http or https. ' + SECRET_HINT)}
${select('webhookType', 'Kind', 'webhookTypes')}${select('method', 'Method', 'methods')}
${area('headers', 'Headers', 'One per line: Name: value. Credentials are shown masked.')}
${area('queryParameters', 'Query parameters', 'One per line: name=value.')}
${area('template', 'Body template (optional)', 'Handlebars with Checkly variable names such as ALERT_TITLE and CHECK_NAME; empty sends the default body.')}
${text('webhookSecret', 'Signing secret (optional)', 'whsec_ and base64, or any text. ' + SECRET_HINT)}{{/if}}
{{#if isPAGERDUTY}}${text('serviceKey', 'Integration key', SECRET_HINT)}${text('serviceName', 'Service name (optional)')}${text('pdAccount', 'PagerDuty account (optional)')}{{/if}}
{{#if isOPSGENIE}}${text('name', 'Name')}${text('apiKey', 'API key', SECRET_HINT)}${select('region', 'Region', 'regions')}${select('priority', 'Priority', 'priorities')}{{/if}}
<fieldset><legend>Send</legend>${flag('sendFailure', 'Failures')}${flag('sendRecovery', 'Recoveries')}${flag('sendDegraded', 'Degraded')}${flag('sslExpiry', 'Certificate expiry')}
<div><label for="sslExpiryThreshold">Days before certificate expiry (1–30)</label>${FIELD_ERROR('sslExpiryThreshold')}<input type="text" inputmode="numeric" id="sslExpiryThreshold" name="sslExpiryThreshold" value="{{values.text.sslExpiryThreshold}}"${INVALID('sslExpiryThreshold')}></div></fieldset>
<fieldset${INVALID('checks')}><legend>Checks that alert here</legend>${FIELD_ERROR('checks')}
{{#each checkChoices}}<div class="check"><input type="checkbox" id="chk-{{id}}" name="check-{{id}}" value="on"{{#if checked}} checked{{/if}}><label for="chk-{{id}}">{{name}}</label></div>{{else}}<p class="muted">No checks yet.</p>{{/each}}
{{#if checksLeftOut}}<p class="muted">{{checksLeftOut}} more checks are not listed: choose this channel on a check's own page.</p>{{/if}}
</fieldset>`;

export const CHANNELS = `{{#> layout}}
<h1>Alert channels</h1>
{{#if channels}}<ul class="rows card">{{#each channels}}<li><span class="who"><a href="/console/alert-channels/{{id}}{{../q}}">{{title}}</a> <span class="muted">{{target}}</span></span><span class="state">{{typeName}}</span> <span class="muted">{{checkCount}} checks</span></li>{{/each}}</ul>
{{else}}<p class="card">No alert channels yet.</p>{{/if}}
{{#if canWrite}}<section aria-labelledby="add-h"><h2 id="add-h">Add a channel</h2>
<ul class="rows card">{{#each types}}<li><a href="/console/alert-channels/new{{../qAnd}}type={{value}}">New {{text}} channel</a></li>{{/each}}</ul></section>{{/if}}
{{/layout}}`;

export const CHANNEL_NEW = `{{#> layout}}
<h1>New {{typeName}} channel</h1>
<form method="post" action="/console/alert-channels{{qAnd}}type={{values.type}}" class="card stack" novalidate>
${CHANNEL_FIELDS}
<button class="btn" type="submit">Create channel</button>
</form>
<p><a href="/console/alert-channels{{q}}">All alert channels</a></p>
{{/layout}}`;

export const CHANNEL = `{{#> layout}}
<h1>{{title}}</h1>
<p><span class="state">{{typeName}}</span> <span class="muted">{{target}}</span></p>
{{#if canWrite}}<section aria-labelledby="test-h"><h2 id="test-h">Send a test</h2>
<form method="post" action="/console/alert-channels/{{id}}/test{{q}}" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><button class="btn" type="submit">Send a test alert</button><span class="muted">It appears in the delivery log below.</span></form></section>{{/if}}
<section aria-labelledby="log-h"><h2 id="log-h">Delivery log</h2>
{{#if deliveries}}<ul class="rows card">{{#each deliveries}}<li><span class="who">{{alertType}} <span class="muted">{{when}} · {{recipient}} · {{attempts}} attempts{{#if lastError}} · {{lastError}}{{/if}}{{#if suppressedReason}} · {{suppressedReason}}{{/if}}</span></span><span class="state s-{{status}}">{{status}}</span>
{{#if retry}}<form method="post" action="/console/alert-channels/{{../id}}/deliveries/{{id}}/retry{{../q}}" class="inline"><input type="hidden" name="csrf" value="{{../csrf}}"><button class="btn quiet" type="submit">Retry</button></form>{{/if}}</li>{{/each}}</ul>
{{#if older}}<p><a href="/console/alert-channels/{{id}}{{qAnd}}before={{older}}">Older deliveries</a></p>{{/if}}
{{else}}<p class="card">Nothing sent yet{{#if paged}} before this point{{/if}}.</p>{{/if}}
</section>
{{#if canWrite}}<section aria-labelledby="edit-h"><h2 id="edit-h">Settings</h2>
<form method="post" action="/console/alert-channels/{{id}}{{q}}" class="card stack" novalidate>
${CHANNEL_FIELDS}
<button class="btn" type="submit">Save channel</button>
</form></section>{{/if}}
${historySection('alert-channel', false, 'this')}
<p><a href="/console/alert-channels{{q}}">All alert channels</a></p>
{{/layout}}`;
