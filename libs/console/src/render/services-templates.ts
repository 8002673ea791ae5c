import { csrf, formFailed, input, postButton, textarea } from './form-parts';
import { historySection } from './audit-templates';

/** Services: the list with the form that adds one, and a service's page that edits or deletes it. */
const SERVICE_FIELDS = `${input('name', 'Name', { max: 255, required: true, hint: 'As customers see it on status pages.' })}
${textarea('description', 'Description (optional)', 500, 'Shown under the name on status pages.')}`;

export const SERVICES = `{{#> layout}}
<h1>Services</h1>
{{#if services}}<ul class="rows card">{{#each services}}<li><span class="who"><a href="/console/services/{{id}}{{../q}}">{{name}}</a>{{#if description}} <span class="muted">{{description}}</span>{{/if}}</span></li>{{/each}}</ul>
{{else}}<p class="card">No services yet.</p>{{/if}}
{{#if canWrite}}<section aria-labelledby="add-h"><h2 id="add-h">Add a service</h2>
${formFailed('The service was not added')}
<form method="post" action="/console/services{{q}}" class="card stack" novalidate>${csrf}
${SERVICE_FIELDS}
<button class="btn" type="submit">Add service</button>
</form></section>{{/if}}
{{/layout}}`;

export const SERVICE = `{{#> layout}}
<h1>{{service.name}}</h1>
{{#if service.checks}}<p>Checks: {{#each service.checks}}<a href="/console/checks/{{id}}{{../q}}">{{name}}</a>{{#unless @last}}, {{/unless}}{{/each}}</p>{{/if}}
{{#if canWrite}}<section aria-labelledby="edit-h"><h2 id="edit-h">Edit</h2>
${formFailed('The service was not saved')}
<form method="post" action="/console/services/{{service.id}}{{q}}" class="card stack" novalidate>${csrf}
${SERVICE_FIELDS}
<button class="btn" type="submit">Save service</button>
</form></section>
<section aria-labelledby="del-h"><h2 id="del-h">Delete</h2>
{{#if deleteError}}<p class="error" role="alert">{{deleteError}}</p>{{/if}}
<p>A service still on a status page's card or an open incident cannot be deleted.</p>
${postButton('/console/services/{{service.id}}/delete{{q}}', 'Delete service', true)}
</section>{{else}}{{#if service.description}}<p>{{service.description}}</p>{{/if}}{{/if}}
${historySection('service', false)}
<p><a href="/console/services{{q}}">All services</a></p>
{{/layout}}`;
