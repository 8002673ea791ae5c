/** Handlebars sources of the checks screens, in people's console layout. Every value goes through `{{ }}` (escaped). */
import { historySection } from './audit-templates';
import { FIELD_ERROR, INVALID } from './console-templates';

const units = (name: string, list: string, label: string) =>
  `<label for="${name}">${label}</label><select id="${name}" name="${name}">{{#each ${list}}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{value}}</option>{{/each}}</select>`;

/** Name, tags, timing (a period or a cron schedule), grace and the alert channels: a create and an edit alike. */
const CHECK_FIELDS = `<input type="hidden" name="csrf" value="{{csrf}}">
{{#if errors}}<p class="error" role="alert">Nothing was saved: correct the fields marked below.</p>{{/if}}
<div><label for="name">Name</label>${FIELD_ERROR('name')}<input type="text" id="name" name="name" maxlength="255" required value="{{values.name}}"${INVALID('name')}></div>
<div><label for="tags">Tags, separated by commas</label>${FIELD_ERROR('tags')}<input type="text" id="tags" name="tags" value="{{values.tags}}"${INVALID('tags')}></div>
<div><label for="description">Description (optional)</label>${FIELD_ERROR('description')}<input type="text" id="description" name="description" maxlength="500" value="{{values.description}}"${INVALID('description')}></div>
<fieldset><legend>Expected</legend>
<div class="check"><input type="radio" id="timing-period" name="timing" value="period"{{#unless bySchedule}} checked{{/unless}}><label for="timing-period">Every period</label></div>
<div class="timing">${FIELD_ERROR('period')}<label for="period">Period</label><input type="text" inputmode="numeric" id="period" name="period" value="{{values.period}}" class="num"${INVALID('period')}> ${units('periodUnit', 'periodUnits', 'Period unit')}</div>
<div class="check"><input type="radio" id="timing-schedule" name="timing" value="schedule"{{#if bySchedule}} checked{{/if}}><label for="timing-schedule">On a cron schedule</label></div>
<div class="timing">${FIELD_ERROR('schedule')}<label for="schedule">Cron schedule (five fields or @daily)</label><input type="text" id="schedule" name="schedule" value="{{values.schedule}}"${INVALID('schedule')}>
<label for="timezone">Time zone</label><input type="text" id="timezone" name="timezone" value="{{values.timezone}}"></div>
</fieldset>
<div class="timing">${FIELD_ERROR('grace')}<label for="grace">Grace: how late a ping may be before the check fails</label><input type="text" inputmode="numeric" id="grace" name="grace" value="{{values.grace}}" class="num"${INVALID('grace')}> ${units('graceUnit', 'graceUnits', 'Grace unit')}</div>
<fieldset${INVALID('channels')}><legend>Alert channels to notify</legend>${FIELD_ERROR('channels')}
{{#each channelChoices}}<div class="check"><input type="checkbox" id="ch-{{id}}" name="channel-{{id}}" value="on"{{#if checked}} checked{{/if}}><label for="ch-{{id}}">{{title}}</label></div>{{else}}<p class="muted">No alert channels yet.</p>{{/each}}
</fieldset>`;

export const CHECKS = `{{#> layout}}
<h1>Checks</h1>
<nav aria-label="Check filter"><ul><li><a href="/console/checks{{q}}"{{#unless filtered}} aria-current="page"{{/unless}}>All</a></li>
{{#each stateFilters}}<li><a href="/console/checks{{../qAnd}}state={{value}}"{{#if current}} aria-current="page"{{/if}}>{{value}}</a></li>{{/each}}</ul></nav>
{{#if tagFilters}}<nav aria-label="Tag filter"><ul>{{#each tagFilters}}<li><a href="/console/checks{{../qAnd}}tag={{param}}"{{#if current}} aria-current="page"{{/if}}>#{{value}}</a></li>{{/each}}</ul></nav>{{/if}}
{{#if checks}}<ul class="rows card">{{#each checks}}<li><span class="who"><a href="/console/checks/{{id}}{{../q}}">{{name}}</a>{{#each tags}} <span class="muted">#{{this}}</span>{{/each}}</span><span class="state s-{{state}}">{{state}}</span> <span class="muted">{{lastPingText}}</span>
<span class="runs" role="img" aria-label="Recent runs, newest first: {{runsText}}">{{#each runs}}<span class="run r-{{this}}"></span>{{/each}}</span></li>{{/each}}</ul>
{{#if more}}<p><a href="/console/checks{{qAnd}}{{more}}">More checks</a></p>{{/if}}
{{else}}<p class="card">No checks{{#if state}} in state {{state}}{{/if}}{{#if tag}} tagged {{tag}}{{/if}}.</p>{{/if}}
{{#if canWrite}}<section aria-labelledby="new-h"><h2 id="new-h">Create a check</h2>
<form method="post" action="/console/checks{{q}}" class="card stack" novalidate>
${CHECK_FIELDS}
<button class="btn" type="submit">Create check</button>
</form></section>{{/if}}
{{/layout}}`;

export const CHECK = `{{#> layout}}
<h1>{{check.name}}</h1>
<p><span class="state s-{{check.state}}">{{check.state}}</span> <span class="muted">{{lastPingText}} · {{timingText}}</span></p>
<p>Alert channels: {{#each channels}}<a href="/console/alert-channels/{{id}}{{../q}}">{{title}}</a>{{#unless @last}}, {{/unless}}{{else}}none{{/each}}</p>
<section aria-labelledby="ping-h"><h2 id="ping-h">Ping URL</h2>
<div class="card"><p><code>{{check.heartbeat.pingUrl}}</code></p>
<p>Add to the end of the job's crontab line, for example:</p>
<pre><code>{{cron}}</code></pre></div>
</section>
{{#if canWrite}}<section aria-labelledby="act-h"><h2 id="act-h">Actions</h2>
{{#if deactivated}}<p>Monitoring is off: pings are ignored and nothing alerts.</p>
<form method="post" action="/console/checks/{{check.id}}/resume{{q}}"><input type="hidden" name="csrf" value="{{csrf}}"><button class="btn" type="submit">Resume monitoring</button></form>
{{else}}{{#if paused}}<p>Paused: the check's next ping resumes it.</p>
{{else}}<form method="post" action="/console/checks/{{check.id}}/pause{{q}}" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><button class="btn" type="submit">Pause</button><span class="muted">until its next ping</span></form>{{/if}}
<form method="post" action="/console/checks/{{check.id}}/deactivate{{q}}" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><button class="btn quiet" type="submit">Turn monitoring off</button><span class="muted">until resumed here</span></form>{{/if}}
</section>{{/if}}
<section aria-labelledby="log-h"><h2 id="log-h">Ping log</h2>
{{#if stats}}<p class="muted">Success: {{stats.day}} of the last 24 hours, {{stats.week}} of the last 7 days.</p>{{/if}}
{{#if pings}}<ul class="rows card">{{#each pings}}<li><span class="who"><a href="/console/checks/{{../check.id}}/pings/{{id}}{{../q}}">{{when}}</a> <span class="muted">{{detail}}</span></span><span class="state s-{{state}}">{{state}}</span></li>{{/each}}</ul>
{{#if older}}<p><a href="/console/checks/{{check.id}}{{qAnd}}before={{older}}">Older pings</a></p>{{/if}}
{{else}}<p class="card">No pings{{#if paged}} before this point{{/if}}.</p>{{/if}}
</section>
{{#if canWrite}}<section aria-labelledby="edit-h"><h2 id="edit-h">Settings</h2>
<form method="post" action="/console/checks/{{check.id}}{{q}}" class="card stack" novalidate>
${CHECK_FIELDS}
<button class="btn" type="submit">Save check</button>
</form></section>{{/if}}
${historySection('check', false)}
<p><a href="/console/checks{{q}}">All checks</a></p>
{{/layout}}`;

export const PING = `{{#> layout}}
<h1>{{when}}</h1>
<p><span class="state s-{{ping.state}}">{{ping.state}}</span> <span class="muted">{{detail}}</span></p>
<section aria-labelledby="out-h"><h2 id="out-h">Captured output</h2>
{{#if ping.body}}<pre><code>{{ping.body}}</code></pre>{{#if ping.truncated}}<p class="muted">Cut at 10,000 bytes.</p>{{/if}}
{{else}}<p class="card">This ping sent no body. POST the job's output to the ping URL to keep it here.</p>{{/if}}
</section>
<p><a href="/console/checks/{{checkId}}{{q}}">Back to {{checkName}}</a></p>
{{/layout}}`;
