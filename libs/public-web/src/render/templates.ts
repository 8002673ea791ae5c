/**
 * Handlebars sources of the public pages. Every user string goes through `{{ }}` (escaped); the only
 * unescaped output is `{{md …}}`, whose HTML markdown-it builds with raw HTML disabled. Bars leave out
 * their optional `</li>`: they are most of a page's bytes.
 */
export const LAYOUT = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{title}}</title>
{{#if summary}}<meta name="description" content="{{summary}}">{{/if}}
<meta name="color-scheme" content="{{colorScheme}}">
<link rel="stylesheet" href="{{cssHref}}">
<link rel="stylesheet" href="{{themeHref}}">
<link rel="icon" href="{{faviconHref}}">
{{#unless plain}}<link rel="alternate" type="application/rss+xml" title="{{name}} – incident history (RSS)" href="{{base}}/history.rss">
<link rel="alternate" type="application/atom+xml" title="{{name}} – incident history (Atom)" href="{{base}}/history.atom">{{/unless}}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><div class="wrap">
<a class="brand" href="{{home}}">{{#if logo}}<img src="{{logo}}" alt=""{{#if logoDark}} class="logo-light"{{/if}}>{{#if logoDark}}<img src="{{logoDark}}" alt="" class="logo-dark">{{/if}}{{/if}}<span>{{name}}</span></a>
{{#unless plain}}<nav aria-label="Status page"><ul>
<li><a href="{{home}}">Current status</a></li>
<li><a href="{{base}}/history">History</a></li>
<li><a href="{{home}}#subscribe">Subscribe</a></li>
{{#if redirectTo}}<li><a href="{{redirectTo}}" rel="nofollow noopener">Website</a></li>{{/if}}
</ul></nav>{{/unless}}
</div></header>
<main id="main" class="wrap">
{{> @partial-block }}
</main>
<footer class="wrap"><p>{{#if plain}}Powered by Vigil{{else}}Feeds: <a href="{{base}}/history.rss">RSS</a> · <a href="{{base}}/history.atom">Atom</a> · <a href="{{base}}/api/v2/summary.json">JSON</a> · Powered by Vigil{{/if}}</p></footer>
</body>
</html>
`;

export const INCIDENT_PARTIAL = `<article class="incident" aria-labelledby="inc-{{id}}">
{{#unless standalone}}<h3 id="inc-{{id}}"><a href="{{href}}">{{name}}</a></h3>{{/unless}}
<p class="meta"><span class="st st-{{impactStatus}}"><span class="icon" aria-hidden="true">{{impactIcon}}</span>{{impactLabel}}</span> · {{statusLabel}} · {{affected}}</p>
<ol class="timeline">
{{#each updates}}<li><p class="meta"><span class="upd-status">{{statusLabel}}</span> · <time datetime="{{at}}">{{atText}}</time></p><div class="md">{{md description}}</div></li>
{{/each}}</ol>
</article>`;

export const PAGE = `{{#> layout}}
<h1 class="vh">{{name}}</h1>
{{#if description}}<p class="lead">{{description}}</p>{{/if}}
<p class="banner i-{{bannerClass}}" role="status"><span class="icon" aria-hidden="true">{{bannerIcon}}</span>{{bannerText}}</p>
{{#if maintenance.active}}<section aria-labelledby="maint-now"><h2 id="maint-now">Maintenance in progress</h2>{{#each maintenance.active}}{{> maintenance}}{{/each}}</section>{{/if}}
{{#if open}}<section aria-labelledby="open-h"><h2 id="open-h">Open incidents</h2>{{#each open}}{{> incident}}{{/each}}</section>{{/if}}
<section aria-labelledby="svc-h"><h2 id="svc-h">Services</h2>
{{#each cards}}<section class="card" aria-labelledby="card-{{id}}"><h3 id="card-{{id}}">{{name}}</h3>
<ul class="svc">{{#each services}}<li>
<div class="svc-head"><span class="svc-name">{{name}}</span>{{#if chart}}<svg class="rt" viewBox="0 0 96 20" width="96" height="20" role="img" aria-label="{{chart.label}}"><path d="{{chart.d}}" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round"/></svg>{{/if}}<span class="st st-{{status}}"><span class="icon" aria-hidden="true">{{icon}}</span>{{statusLabel}}</span></div>
{{#if description}}<p class="svc-desc">{{description}}</p>{{/if}}
<ol class="bars" aria-label="{{name}}: daily uptime, last 90 days">{{#each runs}}<li class="b-{{code}} w{{days}}{{#if old}} o{{/if}}"><span>{{text}}</span>{{/each}}</ol>
<p class="legend"><span><span class="l90">90</span><span class="l30">30</span> days ago</span><span><span class="l90">{{uptimeText}}</span><span class="l30">{{narrowUptimeText}}</span></span><span>Today</span></p>
</li>{{/each}}</ul></section>
{{else}}<p class="muted">This page shows no services yet.</p>
{{/each}}</section>
<section aria-labelledby="upcoming-h"><h2 id="upcoming-h">Scheduled maintenance</h2>{{#each maintenance.upcoming}}{{> maintenance}}{{else}}<p class="muted">No maintenance scheduled.</p>{{/each}}</section>
<section aria-labelledby="past-h"><h2 id="past-h">Past incidents (last 7 days)</h2>
{{#if recent}}<ul class="past">{{#each recent}}<li><a href="{{href}}">{{name}}</a><p class="meta"><span class="st st-{{impactStatus}}"><span class="icon" aria-hidden="true">{{impactIcon}}</span>{{impactLabel}}</span> · <time datetime="{{lastAt}}">{{lastAtText}}</time> · {{affected}}</p></li>{{/each}}</ul>
{{else}}<p class="muted">No incidents in the last 7 days.</p>{{/if}}
<p><a href="{{base}}/history">Incident history</a></p></section>
{{> subscribe}}
{{/layout}}`;

export const MAINTENANCE_PARTIAL = `<article class="incident"><h3>{{name}}</h3><p class="meta"><span class="st st-under_maintenance"><span class="icon" aria-hidden="true">&#9881;</span>Maintenance</span> · <time datetime="{{startsAt}}">{{startsText}}</time> – <time datetime="{{endsAt}}">{{endsText}}</time>{{#if affected}} · {{affected}}{{/if}}</p></article>`;

export const SUBSCRIBE_PARTIAL = `<section class="sub" id="subscribe" aria-labelledby="sub-h"><h2 id="sub-h">Get updates by email</h2>
<form method="post" action="{{base}}/subscribe">
<label for="sub-email">Email address</label>
<input id="sub-email" type="email" name="email" required maxlength="254" autocomplete="email">
<button class="btn" type="submit">Subscribe</button>
</form>
<p class="muted">We send a link to confirm your address. Nothing is sent before you follow it.</p></section>`;

export const HISTORY = `{{#> layout}}
<h1>Incident history</h1>
<p class="lead">{{rangeText}}</p>
{{#each incidents}}{{> incident}}{{else}}<p class="muted">No incidents in this period.</p>{{/each}}
<nav class="pager" aria-label="History pages">{{#if newer}}<a href="{{newer}}">Newer incidents</a>{{else}}<span></span>{{/if}}{{#if older}}<a href="{{older}}">Older incidents</a>{{/if}}</nav>
{{/layout}}`;

export const INCIDENT_PAGE = `{{#> layout}}
<p class="back"><a href="{{home}}">Back to current status</a></p>
<h1 id="inc-{{incident.id}}">{{incident.name}}</h1>
{{#with incident}}{{> incident}}{{/with}}
{{/layout}}`;

export const MESSAGE = `{{#> layout}}
<h1>{{heading}}</h1>
{{#each paragraphs}}<p>{{this}}</p>{{/each}}
{{#if form}}<form method="post" action="{{form.action}}"><button class="btn" type="submit">{{form.button}}</button></form>{{/if}}
{{#if backText}}<p><a href="{{home}}">{{backText}}</a></p>{{/if}}
{{/layout}}`;

/** Shields-style badge: user strings (a service name) are escaped like everywhere else. */
export const BADGE = `<svg xmlns="http://www.w3.org/2000/svg" width="{{width}}" height="20" role="img" aria-label="{{label}}: {{message}}"><title>{{label}}: {{message}}</title><linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient><clipPath id="r"><rect width="{{width}}" height="20" rx="3" fill="#fff"/></clipPath><g clip-path="url(#r)"><rect width="{{labelWidth}}" height="20" fill="#555"/><rect x="{{labelWidth}}" width="{{messageWidth}}" height="20" fill="{{color}}"/><rect width="{{width}}" height="20" fill="url(#s)"/></g><g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11"><text x="{{labelX}}" y="14">{{label}}</text><text x="{{messageX}}" y="14">{{message}}</text></g></svg>`;
