import { csrf, fieldError, formFailed, input, postButton, select } from './form-parts';
import { historySection } from './audit-templates';

/** Maintenance windows: the list by phase with the form that plans one, and a window's page (edit, end, delete). */
const WINDOW_FIELDS = `${input('name', 'Name', { max: 255, required: true })}
${input('startsAt', 'Starts (UTC)', { type: 'datetime-local', required: true, hint: 'Date and time in UTC, for example 2026-12-01T01:00.' })}
${input('endsAt', 'Ends (UTC)', { type: 'datetime-local', required: true })}
${select('repeatUnit', 'Repeats', 'repeatUnits')}
${input('repeatInterval', 'Repeat every (number of days, weeks or months)', { type: 'number', extra: ' min="1" max="1000"' })}
${input('repeatEndsAt', 'Repeats end (UTC, optional)', { type: 'datetime-local' })}
${input('timezone', 'Time zone of the repeats', { max: 64, hint: 'An IANA name such as Europe/Berlin: repeats keep its wall-clock time.' })}
${input('tags', 'Check tags (optional)', { max: 2000, hint: 'Comma-separated: checks with one of these tags raise no alert during the window.' })}
<fieldset{{#if errors.serviceIds}} aria-invalid="true" aria-describedby="serviceIds-error"{{/if}}><legend>Services shown as under maintenance</legend>${fieldError('serviceIds')}
{{#each serviceChoices}}<div class="check"><input type="checkbox" id="svc-{{id}}" name="service-{{id}}" value="on"{{#if checked}} checked{{/if}}><label for="svc-{{id}}">{{name}}</label></div>{{else}}<p class="muted">No services yet.</p>{{/each}}
</fieldset>`;

const GROUP = (key: string, title: string, empty: string) => `<section aria-labelledby="${key}-h"><h2 id="${key}-h">${title}</h2>
{{#if groups.${key}}}<ul class="rows card">{{#each groups.${key}}}<li><span class="who"><a href="/console/maintenance/{{id}}{{../q}}">{{name}}</a></span><span>{{when}}</span></li>{{/each}}</ul>
{{else}}<p class="card">${empty}</p>{{/if}}</section>`;

export const MAINTENANCE = `{{#> layout}}
<h1>Maintenance</h1>
${GROUP('active', 'Active now', 'No window is active.')}
${GROUP('upcoming', 'Upcoming', 'No window is planned.')}
${GROUP('repeating', 'Repeating', 'No repeating window.')}
${GROUP('past', 'Past', 'No past window.')}
{{#if canWrite}}<section aria-labelledby="plan-h"><h2 id="plan-h">Plan a window</h2>
${formFailed('The window was not planned')}
<form method="post" action="/console/maintenance{{q}}" class="card stack" novalidate>${csrf}
${WINDOW_FIELDS}
<button class="btn" type="submit">Plan window</button>
</form></section>{{/if}}
{{/layout}}`;

export const MAINTENANCE_WINDOW = `{{#> layout}}
<h1>{{window.name}}</h1>
<p><span class="state">{{phase}}</span> {{when}}</p>
{{#if canWrite}}<section aria-labelledby="act-h"><h2 id="act-h">End or delete</h2>
{{#if canEnd}}${postButton('/console/maintenance/{{window.id}}/end{{q}}', 'End now')}{{/if}}
${postButton('/console/maintenance/{{window.id}}/delete{{q}}', 'Delete window', true)}
</section>
<section aria-labelledby="edit-h"><h2 id="edit-h">Edit</h2>
${formFailed('The window was not saved')}
<form method="post" action="/console/maintenance/{{window.id}}{{q}}" class="card stack" novalidate>${csrf}
${WINDOW_FIELDS}
<button class="btn" type="submit">Save window</button>
</form></section>{{else}}<p>Tags: {{#each window.tags}}{{this}}{{#unless @last}}, {{/unless}}{{else}}none{{/each}}</p>{{/if}}
${historySection('maintenance-window', false, 'window')}
<p><a href="/console/maintenance{{q}}">All maintenance windows</a></p>
{{/layout}}`;
