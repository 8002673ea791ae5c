/** Handlebars sources of the audit screens: the log, and an incident as it was. Every value goes through `{{ }}` (escaped). */

const FIELD_ERROR = (name: string) => `{{#if errors.${name}}}<p class="field-error" id="${name}-error">{{errors.${name}}}</p>{{/if}}`;
const DESCRIBED = (name: string, hint = '') => `{{#if errors.${name}}} aria-invalid="true" aria-describedby="${name}-error${hint && ` ${hint}`}"{{else}}${hint && ` aria-describedby="${hint}"`}{{/if}}`;
/** The account of a person with several, carried by GET forms. */
const ACCOUNT_FIELD = '{{#if q}}<input type="hidden" name="account" value="{{account.id}}">{{/if}}';

/**
 * The History section of a resource page: a link to its changes, and (incidents, status pages) the form that
 * shows it as it was. `value` names the page's variable holding the resource (default: its type); `asOfValue` fills the form.
 */
export const historySection = (type: string, asOf: boolean, value = type) => `<section aria-labelledby="hist-h"><h2 id="hist-h">History</h2>
<p><a href="/console/audit{{qAnd}}resource=${type}:{{${value}.id}}">Every change to this ${type.replace('-', ' ')}, who made it and when</a></p>
${asOf ? `<form method="get" action="/console/${type}s/{{${value}.id}}/as-of" class="inline">${ACCOUNT_FIELD}<label for="asof-at">View as it was at (UTC)</label><input type="datetime-local" id="asof-at" name="at"{{#if asOfValue}} value="{{asOfValue}}"{{/if}} required><button class="btn quiet" type="submit">Show</button></form>` : ''}
</section>`;

export const AUDIT = `{{#> layout}}
<h1>Audit log</h1>
<p>Every change to this account: who made it, when, and what changed. Times are UTC.</p>
{{#if errors}}<p class="error" role="alert">The filter was not applied: correct the fields marked below.</p>{{/if}}
<form method="get" action="/console/audit" class="card filters" novalidate>${ACCOUNT_FIELD}
<div><label for="resource">Resource</label>${FIELD_ERROR('resource')}<input type="text" id="resource" name="resource" value="{{values.resource}}" spellcheck="false"${DESCRIBED('resource', 'resource-hint')}>
<p class="muted" id="resource-hint">A type such as incident or check, or one resource as type:id.</p></div>
<div><label for="actor">Who</label>${FIELD_ERROR('actor')}<select id="actor" name="actor"${DESCRIBED('actor')}><option value="">Anyone</option>{{#each authors}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{text}}</option>{{/each}}</select></div>
<div><label for="from">From</label>${FIELD_ERROR('from')}<input type="datetime-local" id="from" name="from" value="{{values.from}}"${DESCRIBED('from')}></div>
<div><label for="to">Until</label>${FIELD_ERROR('to')}<input type="datetime-local" id="to" name="to" value="{{values.to}}"${DESCRIBED('to')}></div>
<div class="filter-actions"><button class="btn" type="submit">Filter</button> <a href="/console/audit{{q}}">Clear</a></div>
</form>
{{#if errors.after}}<p class="field-error">{{errors.after}}</p>{{/if}}
<p>Export what this filter shows (newest first, at most {{exportMax}} changes): <a href="/console/audit/export.csv?{{exportQuery}}" download>CSV</a> · <a href="/console/audit/export.ndjson?{{exportQuery}}" download>NDJSON</a></p>
{{#if entries}}<ol class="audit card">{{#each entries}}<li>
<p><time datetime="{{at}}">{{when}}</time> · <a href="/console/audit?{{../accountAnd}}actor={{actorKey}}">{{author}}</a> · {{action}}</p>
<p>{{resource.type}} {{#if page}}<a href="{{page}}{{../q}}">{{resourceText}}</a>{{else}}{{resourceText}}{{/if}} · <a href="/console/audit?{{../accountAnd}}resource={{resource.type}}:{{resource.id}}">its history</a>{{#if asOf}} · <a href="{{asOf}}{{#if ../accountAnd}}&amp;{{../accountAnd}}{{/if}}">as it was after this change</a>{{/if}}</p>
{{#if changes}}<dl class="diff">{{#each changes}}<div><dt>{{field}}</dt><dd>{{#if kept}}<span class="{{#if wasSet}}was{{else}}muted{{/if}}">{{before}}</span> <span aria-hidden="true">→</span><span class="sr">changed to</span> {{/if}}<span class="now">{{after}}</span></dd></div>{{/each}}</dl>{{/if}}
</li>{{/each}}</ol>
{{else}}<p class="card">No changes{{#if filtered}} match this filter{{/if}}.</p>{{/if}}
<nav aria-label="Audit pages"><ul class="pager">{{#if paged}}<li><a href="/console/audit?{{firstQuery}}">Newest changes</a></li>{{/if}}{{#if next}}<li><a href="/console/audit?{{next}}" rel="next">Older changes</a></li>{{/if}}</ul></nav>
{{/layout}}`;

export const INCIDENT_AS_OF = `{{#> layout}}
<div class="past-view" role="note"><p><strong>Past view.</strong> This incident as it was at {{asOfText}}. Nothing can be changed here.</p>
<p><a href="/console/incidents/{{incident.id}}{{q}}">See it as it is now</a></p></div>
<h1>{{incident.name}}</h1>
<p><span class="state s-{{incident.severity}}">{{incident.severity}}</span> <span class="state s-{{incident.lastUpdateStatus}}">{{incident.lastUpdateStatus}}</span></p>
<p>Affected services: {{#each incident.services}}{{name}}{{#unless @last}}, {{/unless}}{{else}}none{{/each}}</p>
<section aria-labelledby="tl-h"><h2 id="tl-h">Timeline as of {{asOfText}}</h2>
<ol class="timeline card">{{#each timeline}}<li><strong>{{status}}</strong> <span class="muted">{{when}}</span><p>{{description}}</p></li>{{/each}}</ol>
</section>
${historySection('incident', true)}
{{/layout}}`;

export const STATUS_PAGE_AS_OF = `{{#> layout}}
<div class="past-view" role="note"><p><strong>Past view.</strong> This status page as it was at {{asOfText}}. Nothing can be changed here.</p>
<p><a href="/console/status-pages/{{page.id}}{{q}}">See it as it is now</a></p></div>
<h1>{{page.name}}</h1>
<dl class="diff">
<div><dt>Address</dt><dd>/status/{{page.url}}</dd></div>
<div><dt>Custom domain</dt><dd>{{#if page.customDomain}}{{page.customDomain}}{{#if page.customDomainVerified}} (verified){{/if}}{{else}}none{{/if}}</dd></div>
<div><dt>Description</dt><dd>{{#if page.description}}{{page.description}}{{else}}none{{/if}}</dd></div>
<div><dt>Theme</dt><dd>{{page.defaultTheme}}</dd></div>
</dl>
<section aria-labelledby="cards-h"><h2 id="cards-h">Cards and services</h2>
{{#if page.cards}}<ul class="rows card">{{#each page.cards}}<li><span class="who">{{name}}</span><span>{{#each services}}{{name}}{{#unless @last}}, {{/unless}}{{else}}no services{{/each}}</span></li>{{/each}}</ul>
{{else}}<p class="card">No cards.</p>{{/if}}
<p class="muted">Services show their names of today.</p>
</section>
${historySection('status-page', true, 'page')}
{{/layout}}`;
