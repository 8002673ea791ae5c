/** Handlebars sources of the console's pages, in people's console layout. Every value goes through `{{ }}` (escaped). */
export const MESSAGE = `{{#> layout}}
<h1>{{heading}}</h1>
{{#each paragraphs}}<p>{{this}}</p>{{/each}}
<p><a href="/console{{q}}">Back to the overview</a></p>
{{/layout}}`;

export const OVERVIEW = `{{#> layout}}
<h1>Overview</h1>
<div id="live" data-events="/console/events{{q}}" data-version="{{version}}">
<section aria-labelledby="inc-h"><h2 id="inc-h">Open incidents</h2>
{{#if incidents}}<ul class="rows card">{{#each incidents}}<li><span class="who"><a href="/console/incidents/{{id}}{{../q}}">{{name}}</a></span><span class="state s-{{severity}}">{{severity}}</span> <span>{{lastUpdateStatus}}</span></li>{{/each}}</ul>
{{else}}<p class="card">No open incidents.</p>{{/if}}
</section>
<section aria-labelledby="svc-h"><h2 id="svc-h">Services</h2>
{{#if services}}<ul class="rows card">{{#each services}}<li><span class="who">{{name}}</span><span class="state s-{{status}}">{{statusText}}</span></li>{{/each}}</ul>
{{else}}<p class="card">No services yet.</p>{{/if}}
</section>
<section aria-labelledby="chk-h"><h2 id="chk-h">Checks</h2>
{{#if checks}}<ul class="rows card">{{#each checks}}<li><span class="who"><a href="/console/checks/{{id}}{{../q}}">{{name}}</a></span><span class="state s-{{state}}">{{state}}</span> <span class="muted">{{lastPingText}}</span></li>{{/each}}</ul>
{{else}}<p class="card">No checks yet.</p>{{/if}}
{{#if checks}}<p>{{checkCount}} checks:{{#each stateCounts}} {{count}} {{state}}{{#unless @last}},{{/unless}}{{/each}}. <a href="/console/checks{{q}}">All checks</a></p>{{/if}}
</section>
<section aria-labelledby="mnt-h"><h2 id="mnt-h">Maintenance</h2>
{{#if maintenance}}<ul class="rows card">{{#each maintenance}}<li><span class="who">{{name}}</span><span>{{when}}</span></li>{{/each}}</ul>
{{else}}<p class="card">No active or upcoming maintenance.</p>{{/if}}
</section>
<p class="muted">As of {{asOf}}. This page updates itself; reload it to refresh without JavaScript.</p>
</div>
{{/layout}}`;

/** One field's error, tied to the field by id (aria-describedby). */
export const FIELD_ERROR = (name: string) => `{{#if errors.${name}}}<p class="field-error" id="${name}-error">{{errors.${name}}}</p>{{/if}}`;
export const INVALID = (name: string) => `{{#if errors.${name}}} aria-invalid="true" aria-describedby="${name}-error"{{/if}}`;
