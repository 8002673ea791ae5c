import { historySection } from './audit-templates';
import { FIELD_ERROR, INVALID } from './console-templates';
import { TEMPLATE_CHOOSER } from './incident-template-screens';

/**
 * Handlebars sources of the incident pages. Every value goes through `{{ }}` (escaped) except `{{{preview}}}`:
 * the public pages' own rendering of the incident, escaped there, so the preview is what customers will see.
 */

const select = (id: string, label: string, list: string) =>
  `<div><label for="${id}">${label}</label>${FIELD_ERROR(id)}<select id="${id}" name="${id}"${INVALID(id)}>{{#each ${list}}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{value}}</option>{{/each}}</select></div>`;

const SERVICES = `<fieldset${INVALID('services')}><legend>Affected services</legend>${FIELD_ERROR('services')}
{{#each serviceChoices}}<div class="check"><input type="checkbox" id="svc-{{id}}" name="service-{{id}}" value="on"{{#if checked}} checked{{/if}}><label for="svc-{{id}}">{{name}}</label></div>{{else}}<p class="muted">No services yet: create one first.</p>{{/each}}
</fieldset>`;

const NAME = `<div><label for="name">Name</label>${FIELD_ERROR('name')}<input type="text" id="name" name="name" maxlength="255" required value="{{values.name}}"${INVALID('name')}></div>`;

const AT = (label: string, hint: string) =>
  `<div><label for="at">${label}</label><p class="muted hint" id="at-hint">${hint}</p>${FIELD_ERROR('at')}<input type="datetime-local" id="at" name="at" value="{{values.at}}" aria-describedby="at-hint{{#if errors.at}} at-error{{/if}}"{{#if errors.at}} aria-invalid="true"{{/if}}></div>`;

const NOTIFY = `<div class="check"><input type="checkbox" id="notify" name="notify" value="on"{{#if values.notify}} checked{{/if}}><label for="notify">Notify subscribers</label></div>`;

const ROW = `<li><span class="who"><a href="/console/incidents/{{id}}{{../q}}">{{name}}</a> <span class="muted">{{created}}</span></span><span class="state s-{{severity}}">{{severity}}</span> <span>{{lastUpdateStatus}}</span></li>`;

const FILTERS = `<form method="get" action="/console/incidents" class="card filters" role="search" aria-label="Search incidents">
{{#if accountParam}}<input type="hidden" name="account" value="{{accountParam}}">{{/if}}
<div><label for="f-search">Name contains</label><input type="search" id="f-search" name="search" maxlength="255" value="{{list.search}}"></div>
<div><label for="f-status">Status</label><select id="f-status" name="status"><option value="">Any</option>{{#each list.statuses}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{text}}</option>{{/each}}</select></div>
<div><label for="f-severity">Severity</label><select id="f-severity" name="severity"><option value="">Any</option>{{#each list.severities}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{value}}</option>{{/each}}</select></div>
<div><label for="f-service">Service</label><select id="f-service" name="service"><option value="">Any</option>{{#each list.services}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{text}}</option>{{/each}}</select></div>
<div><button class="btn" type="submit">Show</button></div>
</form>`;

export const INCIDENTS = `{{#> layout}}
<h1>Incidents</h1>
<p><a href="/console/incidents/templates{{q}}">Incident templates</a></p>
${FILTERS}
{{#if list.error}}<p class="error" role="alert">{{list.error}}</p>{{/if}}
{{#if incidents}}<ul class="rows card">{{#each incidents}}${ROW}{{/each}}</ul>
{{else}}<p class="card">No incidents{{#if list.filtered}} match{{/if}}.</p>{{/if}}
{{#if list.scanned}}<p class="muted">Searched {{list.scanMax}} incidents without filling this page.</p>{{/if}}
<nav class="pager" aria-label="Incident pages">{{#if list.first}}<a href="{{list.first}}">Newest incidents</a>{{/if}} {{#if list.next}}<a href="{{list.next}}">{{#if list.scanned}}Search older incidents{{else}}Older incidents{{/if}}</a>{{/if}}</nav>
{{#if canWrite}}
<section aria-labelledby="declare-h"><h2 id="declare-h">Declare an incident</h2>
{{#if preview}}<section class="preview card" aria-labelledby="preview-h"><h3 id="preview-h">Preview: as customers will see it</h3><p class="preview-name">{{values.name}}</p>{{{preview}}}<p class="muted">Nothing is declared yet: declare it below, or change it and preview again.</p></section>{{/if}}
{{#if errors}}<p class="error" role="alert">The incident was not declared: correct the fields marked below.</p>{{/if}}
${TEMPLATE_CHOOSER}
<form method="post" action="/console/incidents{{q}}" class="card stack declare" novalidate>
<input type="hidden" name="csrf" value="{{csrf}}">
${NAME}
${select('severity', 'Severity', 'severities')}
${SERVICES}
${select('status', 'Status', 'statuses')}
<div><label for="description">First update</label>${FIELD_ERROR('description')}<textarea id="description" name="description" rows="4" maxlength="10000" required${INVALID('description')}>{{values.description}}</textarea></div>
${AT('Started at (UTC)', 'Empty: now. An earlier time backfills an incident that happened in the past.')}
<details{{#if backfill}} open{{/if}}><summary>Backfill: it is already resolved</summary>
<div><label for="resolvedAt">Resolved at (UTC)</label>${FIELD_ERROR('resolvedAt')}<input type="datetime-local" id="resolvedAt" name="resolvedAt" value="{{values.resolvedAt}}"${INVALID('resolvedAt')}></div>
<div><label for="resolution">Resolution</label>${FIELD_ERROR('resolution')}<textarea id="resolution" name="resolution" rows="3" maxlength="10000"${INVALID('resolution')}>{{values.resolution}}</textarea></div>
</details>
${NOTIFY}
<div class="actions"><button class="btn quiet" type="submit" name="action" value="preview">Preview</button> <button class="btn" type="submit" name="action" value="declare">Declare incident</button></div>
</form></section>
{{/if}}
{{/layout}}`;

export const INCIDENT = `{{#> layout}}
<h1>{{incident.name}}</h1>
<p><span class="state s-{{incident.severity}}">{{incident.severity}}</span> <span class="state s-{{incident.lastUpdateStatus}}">{{incident.lastUpdateStatus}}</span></p>
<p>Affected services: {{#each incident.services}}{{name}}{{#unless @last}}, {{/unless}}{{else}}none{{/each}}</p>
<section aria-labelledby="tl-h"><h2 id="tl-h">Timeline</h2>
<ol class="timeline card">{{#each timeline}}<li><strong>{{status}}</strong> <span class="muted">{{when}}{{#if notifySubscribers}} · subscribers notified{{/if}}</span>{{#if ../canWrite}} <a href="/console/incidents/{{../incident.id}}/updates/{{id}}{{../q}}" aria-label="Edit the {{status}} update of {{when}}">Edit</a>{{/if}}<p>{{description}}</p></li>{{/each}}</ol>
</section>
{{#if canWrite}}
<section aria-labelledby="post-h"><h2 id="post-h">{{#if resolved}}Post an update{{else}}Post an update or resolve{{/if}}</h2>
{{#if errors}}<p class="error" role="alert">The update was not posted: correct the fields marked below.</p>{{/if}}
<form method="post" action="/console/incidents/{{incident.id}}/updates{{q}}" class="card stack" novalidate>
<input type="hidden" name="csrf" value="{{csrf}}">
${select('status', 'Status', 'statuses')}
<div><label for="description">Update</label>${FIELD_ERROR('description')}<textarea id="description" name="description" rows="4" maxlength="10000" required${INVALID('description')}>{{values.description}}</textarea></div>
${AT('Date (UTC)', 'Empty: now. An earlier time adds the update where it happened.')}
${NOTIFY}
<button class="btn" type="submit">Post update</button>
</form></section>
<section aria-labelledby="details-h"><h2 id="details-h">Name, severity and services</h2>
{{#if detailErrors}}<p class="error" role="alert">The details were not saved: correct the fields marked below.</p>{{/if}}
<form method="post" action="/console/incidents/{{incident.id}}{{q}}" class="card stack" novalidate>
<input type="hidden" name="csrf" value="{{csrf}}">
{{#with details}}${NAME}
${select('severity', 'Severity', 'severities')}
${SERVICES}{{/with}}
<button class="btn" type="submit">Save details</button>
</form></section>
{{/if}}
${historySection('incident', true)}
<p><a href="/console/incidents{{q}}">All incidents</a></p>
{{/layout}}`;

export const INCIDENT_UPDATE = `{{#> layout}}
<h1>Edit an update</h1>
<p>Of <a href="/console/incidents/{{incident.id}}{{q}}">{{incident.name}}</a>, posted {{posted}}. Editing never notifies subscribers again.</p>
{{#if errors}}<p class="error" role="alert">The update was not saved: correct the fields marked below.</p>{{/if}}
<form method="post" action="/console/incidents/{{incident.id}}/updates/{{updateId}}{{q}}" class="card stack" novalidate>
<input type="hidden" name="csrf" value="{{csrf}}">
${select('status', 'Status', 'statuses')}
<div><label for="description">Update</label>${FIELD_ERROR('description')}<textarea id="description" name="description" rows="6" maxlength="10000" required${INVALID('description')}>{{values.description}}</textarea></div>
${AT('Date (UTC)', 'When customers read it happened; the timeline is in this order.')}
<button class="btn" type="submit">Save update</button>
</form>
{{/layout}}`;
