/** Handlebars sources of the console's pages. Every value goes through `{{ }}` (escaped); no inline script or style. */
export const LAYOUT = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>{{title}} – Vigil</title>
<meta name="color-scheme" content="light dark">
<link rel="stylesheet" href="{{cssHref}}">
<link rel="icon" href="{{faviconHref}}">
{{#if live}}<script src="{{scriptHref}}" defer></script>{{/if}}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><div class="wrap">
<a class="brand" href="/console{{q}}">Vigil</a>
<nav aria-label="Console"><ul>
<li><a href="/console{{q}}"{{#if navOverview}} aria-current="page"{{/if}}>Overview</a></li>
<li><a href="/console/incidents{{q}}"{{#if navIncidents}} aria-current="page"{{/if}}>Incidents</a></li>
<li><a href="/console/checks{{q}}"{{#if navChecks}} aria-current="page"{{/if}}>Checks</a></li>
<li><a href="/console/monitors{{q}}"{{#if navMonitors}} aria-current="page"{{/if}}>Monitors</a></li>
<li><a href="/console/account{{q}}">Your account</a></li>
</ul></nav>
<span class="muted">Signed in as {{email}}{{#if account}} · {{account.name}} ({{account.role}}){{/if}}</span>
<form method="post" action="/console/sign-out"><input type="hidden" name="csrf" value="{{csrf}}"><button class="btn quiet" type="submit">Sign out</button></form>
</div></header>
<main id="main" class="wrap">
{{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}
{{> @partial-block }}
</main>
</body>
</html>
`;

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
</section>
<section aria-labelledby="mnt-h"><h2 id="mnt-h">Maintenance</h2>
{{#if maintenance}}<ul class="rows card">{{#each maintenance}}<li><span class="who">{{name}}</span><span>{{when}}</span></li>{{/each}}</ul>
{{else}}<p class="card">No active or upcoming maintenance.</p>{{/if}}
</section>
<p class="muted">As of {{asOf}}. This page updates itself; reload it to refresh without JavaScript.</p>
</div>
{{/layout}}`;

/** One field's error, tied to the field by id (aria-describedby). */
const FIELD_ERROR = (name: string) => `{{#if errors.${name}}}<p class="field-error" id="${name}-error">{{errors.${name}}}</p>{{/if}}`;
const INVALID = (name: string) => `{{#if errors.${name}}} aria-invalid="true" aria-describedby="${name}-error"{{/if}}`;

export const INCIDENTS = `{{#> layout}}
<h1>Incidents</h1>
<nav aria-label="Incident filter"><ul><li><a href="/console/incidents{{q}}"{{#unless status}} aria-current="page"{{/unless}}>All</a></li>
<li><a href="/console/incidents{{qAnd}}status=open"{{#if statusOpen}} aria-current="page"{{/if}}>Open</a></li>
<li><a href="/console/incidents{{qAnd}}status=resolved"{{#if statusResolved}} aria-current="page"{{/if}}>Resolved</a></li></ul></nav>
{{#if incidents}}<ul class="rows card">{{#each incidents}}<li><span class="who"><a href="/console/incidents/{{id}}{{../q}}">{{name}}</a> <span class="muted">{{created}}</span></span><span class="state s-{{severity}}">{{severity}}</span> <span>{{lastUpdateStatus}}</span></li>{{/each}}</ul>
{{else}}<p class="card">No incidents.</p>{{/if}}
{{#if canWrite}}
<section aria-labelledby="declare-h"><h2 id="declare-h">Declare an incident</h2>
{{#if errors}}<p class="error" role="alert">The incident was not declared: correct the fields marked below.</p>{{/if}}
<form method="post" action="/console/incidents{{q}}" class="card stack" novalidate>
<input type="hidden" name="csrf" value="{{csrf}}">
<div><label for="name">Name</label>${FIELD_ERROR('name')}<input type="text" id="name" name="name" maxlength="255" required value="{{values.name}}"${INVALID('name')}></div>
<div><label for="severity">Severity</label>${FIELD_ERROR('severity')}<select id="severity" name="severity"${INVALID('severity')}>{{#each severities}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{value}}</option>{{/each}}</select></div>
<fieldset${INVALID('services')}><legend>Affected services</legend>${FIELD_ERROR('services')}
{{#each serviceChoices}}<div class="check"><input type="checkbox" id="svc-{{id}}" name="service-{{id}}" value="on"{{#if checked}} checked{{/if}}><label for="svc-{{id}}">{{name}}</label></div>{{else}}<p class="muted">No services yet.</p>{{/each}}
</fieldset>
<div><label for="status">Status</label>${FIELD_ERROR('status')}<select id="status" name="status"${INVALID('status')}>{{#each statuses}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{value}}</option>{{/each}}</select></div>
<div><label for="description">First update</label>${FIELD_ERROR('description')}<textarea id="description" name="description" rows="4" maxlength="10000" required${INVALID('description')}>{{values.description}}</textarea></div>
<div class="check"><input type="checkbox" id="notify" name="notify" value="on"{{#if values.notify}} checked{{/if}}><label for="notify">Notify subscribers</label></div>
<button class="btn" type="submit">Declare incident</button>
</form></section>
{{/if}}
{{/layout}}`;

export const INCIDENT = `{{#> layout}}
<h1>{{incident.name}}</h1>
<p><span class="state s-{{incident.severity}}">{{incident.severity}}</span> <span class="state s-{{incident.lastUpdateStatus}}">{{incident.lastUpdateStatus}}</span></p>
<p>Affected services: {{#each incident.services}}{{name}}{{#unless @last}}, {{/unless}}{{else}}none{{/each}}</p>
<section aria-labelledby="tl-h"><h2 id="tl-h">Timeline</h2>
<ol class="timeline card">{{#each timeline}}<li><strong>{{status}}</strong> <span class="muted">{{when}}{{#if notifySubscribers}} · subscribers notified{{/if}}</span><p>{{description}}</p></li>{{/each}}</ol>
</section>
{{#if canWrite}}
<section aria-labelledby="post-h"><h2 id="post-h">{{#if resolved}}Post an update{{else}}Post an update or resolve{{/if}}</h2>
{{#if errors}}<p class="error" role="alert">The update was not posted: correct the fields marked below.</p>{{/if}}
<form method="post" action="/console/incidents/{{incident.id}}/updates{{q}}" class="card stack" novalidate>
<input type="hidden" name="csrf" value="{{csrf}}">
<div><label for="status">Status</label>${FIELD_ERROR('status')}<select id="status" name="status"${INVALID('status')}>{{#each statuses}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{value}}</option>{{/each}}</select></div>
<div><label for="description">Update</label>${FIELD_ERROR('description')}<textarea id="description" name="description" rows="4" maxlength="10000" required${INVALID('description')}>{{values.description}}</textarea></div>
<div class="check"><input type="checkbox" id="notify" name="notify" value="on"{{#if values.notify}} checked{{/if}}><label for="notify">Notify subscribers</label></div>
<button class="btn" type="submit">Post update</button>
</form></section>
{{/if}}
<p><a href="/console/incidents{{q}}">All incidents</a></p>
{{/layout}}`;

export const CHECKS = `{{#> layout}}
<h1>Checks</h1>
<nav aria-label="Check filter"><ul><li><a href="/console/checks{{q}}"{{#unless state}} aria-current="page"{{/unless}}>All</a></li>
{{#each stateFilters}}<li><a href="/console/checks{{../qAnd}}state={{value}}"{{#if current}} aria-current="page"{{/if}}>{{value}}</a></li>{{/each}}</ul></nav>
{{#if checks}}<ul class="rows card">{{#each checks}}<li><span class="who"><a href="/console/checks/{{id}}{{../q}}">{{name}}</a></span><span class="state s-{{state}}">{{state}}</span> <span class="muted">{{lastPingText}}</span></li>{{/each}}</ul>
{{else}}<p class="card">No checks{{#if state}} in state {{state}}{{/if}}.</p>{{/if}}
{{/layout}}`;

export const CHECK = `{{#> layout}}
<h1>{{check.name}}</h1>
<p><span class="state s-{{check.state}}">{{check.state}}</span> <span class="muted">{{lastPingText}}</span></p>
<section aria-labelledby="ping-h"><h2 id="ping-h">Ping URL</h2>
<div class="card"><p><code>{{check.heartbeat.pingUrl}}</code></p>
<p>Add to the end of the job's crontab line, for example:</p>
<pre><code>{{cron}}</code></pre></div>
</section>
{{#if canWrite}}<section aria-labelledby="act-h"><h2 id="act-h">Actions</h2>
{{#if paused}}<p>Paused: the check's next ping resumes it.</p>
{{else}}<form method="post" action="/console/checks/{{check.id}}/pause{{q}}"><input type="hidden" name="csrf" value="{{csrf}}"><button class="btn" type="submit">Pause</button></form>{{/if}}
</section>{{/if}}
<p><a href="/console/checks{{q}}">All checks</a></p>
{{/layout}}`;
