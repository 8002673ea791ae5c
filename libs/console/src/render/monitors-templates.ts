/** Handlebars sources of the console's monitor pages, inside the console's layout; every value escaped. */
export const MONITORS = `{{#> layout}}
<h1>Monitors</h1>
{{#if monitors}}<ul class="rows card">{{#each monitors}}<li><span class="who"><a href="/console/monitors/{{id}}{{../q}}">{{name}}</a> <span class="muted">{{checkType}}</span></span><span class="state s-{{stateClass}}">{{stateText}}</span> <span class="muted">{{lastRunText}}</span></li>{{/each}}</ul>
{{else}}<p class="card">No monitors yet. Create one with <code>POST /v1/checks/url</code> (see the monitors guide).</p>{{/if}}
{{/layout}}`;

export const MONITOR = `{{#> layout}}
<h1>{{monitor.name}}</h1>
<p><span class="state s-{{stateClass}}">{{stateText}}</span> <span class="muted">{{monitor.checkType}} monitor · every {{everyText}} · from {{locationsText}}</span></p>
<section aria-labelledby="run-h"><h2 id="run-h">Last run</h2>
<div class="card">{{#if lastRun}}<p>{{lastRun.outcome}} from {{lastRun.location}} at {{lastRunText}}, {{lastRun.timings.total}} ms{{#if lastRun.error}}: {{lastRun.error}}{{/if}}</p>{{else}}<p>No run yet.</p>{{/if}}</div>
</section>
<section aria-labelledby="day-h"><h2 id="day-h">Last 24 hours</h2>
<div class="card">{{#if day.runs}}<p>{{day.availability}} % available over {{day.runs}} runs; response time {{day.avg}} ms on average, p95 {{day.p95}} ms.</p>{{else}}<p>No runs in the last 24 hours.</p>{{/if}}</div>
</section>
<p><a href="/console/monitors{{q}}">All monitors</a></p>
{{/layout}}`;
