import { historySection } from './audit-templates';
import { FIELD_ERROR, INVALID } from './console-templates';
import { csrf, formFailed, input, postButton, select, textarea } from './form-parts';

/** Incident templates: the list with the form that adds one, a template's page, and the declare form's chooser. Every value escaped. */

const SERVICES = `<fieldset${INVALID('services')}><legend>Affected services (optional)</legend>${FIELD_ERROR('services')}
{{#each serviceChoices}}<div class="check"><input type="checkbox" id="svc-{{id}}" name="service-{{id}}" value="on"{{#if checked}} checked{{/if}}><label for="svc-{{id}}">{{name}}</label></div>{{else}}<p class="muted">No services yet.</p>{{/each}}
</fieldset>`;

const FIELDS = `${input('name', 'Template name', { max: 255, required: true, hint: 'How the template is listed here; customers never see it.' })}
${input('title', 'Incident name', { max: 255, required: true, hint: 'The name customers see.' })}
${select('severity', 'Severity', 'severities')}
${SERVICES}
${select('status', 'Status', 'statuses')}
${textarea('body', 'First update', 10_000, 'What customers read first (Markdown).')}
<div class="check"><input type="checkbox" id="notify" name="notify" value="on"{{#if values.notify}} checked{{/if}}><label for="notify">Notify subscribers</label></div>`;

export const INCIDENT_TEMPLATES = `{{#> layout}}
<h1>Incident templates</h1>
<p>A template fills the form that declares an incident: its name, severity, services, first update and whether subscribers are notified. Everything can still be changed before declaring.</p>
{{#if templates}}<ul class="rows card">{{#each templates}}<li><span class="who"><a href="/console/incidents/templates/{{id}}{{../q}}">{{name}}</a> <span class="muted">{{title}}</span></span><span class="state s-{{severity}}">{{severity}}</span>{{#if ../canWrite}} <a href="/console/incidents{{../qAnd}}template={{id}}#declare-h" aria-label="Declare an incident from {{name}}">Declare</a>{{/if}}</li>{{/each}}</ul>
{{else}}<p class="card">No templates yet.</p>{{/if}}
{{#if more}}<p class="muted">The {{shown}} newest templates are shown here; the API lists them all.</p>{{/if}}
{{#if canWrite}}<section aria-labelledby="add-h"><h2 id="add-h">Add a template</h2>
${formFailed('The template was not added')}
<form method="post" action="/console/incidents/templates{{q}}" class="card stack" novalidate>${csrf}
${FIELDS}
<button class="btn" type="submit">Add template</button>
</form></section>{{/if}}
<p><a href="/console/incidents{{q}}">All incidents</a></p>
{{/layout}}`;

export const INCIDENT_TEMPLATE = `{{#> layout}}
<h1>{{template.name}}</h1>
{{#if canWrite}}<p><a href="/console/incidents{{qAnd}}template={{template.id}}#declare-h">Declare an incident from this template</a></p>
<section aria-labelledby="edit-h"><h2 id="edit-h">Edit</h2>
${formFailed('The template was not saved')}
<form method="post" action="/console/incidents/templates/{{template.id}}{{q}}" class="card stack" novalidate>${csrf}
${FIELDS}
<button class="btn" type="submit">Save template</button>
</form></section>
<section aria-labelledby="del-h"><h2 id="del-h">Delete</h2>
{{#if deleteError}}<p class="error" role="alert">{{deleteError}}</p>{{/if}}
<p>Incidents declared from it stay as they are.</p>
${postButton('/console/incidents/templates/{{template.id}}/delete{{q}}', 'Delete template', true)}
</section>{{else}}<dl class="card">
<dt>Incident name</dt><dd>{{template.title}}</dd>
<dt>Severity</dt><dd>{{template.severity}}</dd>
<dt>Affected services</dt><dd>{{#each template.services}}{{name}}{{#unless @last}}, {{/unless}}{{else}}none{{/each}}</dd>
<dt>Status</dt><dd>{{template.status}}</dd>
<dt>First update</dt><dd class="as-typed">{{template.body}}</dd>
<dt>Notify subscribers</dt><dd>{{#if template.notifySubscribers}}yes{{else}}no{{/if}}</dd>
</dl>{{/if}}
${historySection('incident-template', false, 'template')}
<p><a href="/console/incidents/templates{{q}}">All incident templates</a></p>
{{/layout}}`;

/** On the incidents page, before the declare form: a plain GET that fills the form from a template, so it works without JavaScript. */
export const TEMPLATE_CHOOSER = `{{#if templateChoices}}<form method="get" action="/console/incidents#declare-h" class="card filters" aria-label="Start from a template">
{{#if accountParam}}<input type="hidden" name="account" value="{{accountParam}}">{{/if}}
<div><label for="template">Start from a template</label><select id="template" name="template"><option value="">Blank</option>{{#each templateChoices}}<option value="{{id}}"{{#if selected}} selected{{/if}}>{{name}}</option>{{/each}}</select></div>
<div><button class="btn quiet" type="submit">Fill the form</button></div>
</form>{{/if}}`;
