import { THEME_COLOR_KEYS } from '../../../status-pages/src/status-pages.api';
import { historySection } from './audit-templates';
import { csrf, fieldError, formFailed, input, postButton, select, textarea } from './form-parts';

/** Status pages: the list, a page's form (details, domain, look, cards) and its subscribers. */
export const STATUS_PAGES = `{{#> layout}}
<h1>Status pages</h1>
{{#if pages}}<ul class="rows card">{{#each pages}}<li><span class="who"><a href="/console/status-pages/{{id}}{{../q}}">{{name}}</a> <span class="muted">{{url}}</span></span><a href="{{publicUrl}}">Open public page<span class="sr"> of {{name}}</span></a> <a href="/console/status-pages/{{id}}/subscribers{{../q}}">Subscribers<span class="sr"> of {{name}}</span></a></li>{{/each}}</ul>
{{else}}<p class="card">No status pages yet.</p>{{/if}}
{{#if canWrite}}<p><a class="btn" href="/console/status-pages/new{{q}}">New status page</a></p>{{/if}}
{{/layout}}`;

/** A preview of one scheme: SVG presentation attributes (not inline style), which the theme script updates as colours change. */
function preview(short: string, scheme: string): string {
  const v = (key: string) => `data-fill="${short}-${key}" fill="{{values.${short}-${key}}}"`;
  return `<svg class="preview" viewBox="0 0 320 170" role="img" aria-labelledby="pv-${short}"><title id="pv-${short}">Preview of the ${scheme} theme</title>
<rect width="320" height="170" ${v('bodyBackgroundColor')}/><rect width="320" height="36" ${v('headerBackgroundColor')}/>
<text x="12" y="23" font-size="13" font-weight="700" ${v('headerFontColor')}>{{#if values.name}}{{values.name}}{{else}}Your status page{{/if}}</text>
<text x="240" y="23" font-size="11" ${v('navigationFontColor')}>History</text>
<text x="12" y="60" font-size="14" font-weight="700" ${v('titleFontColor')}>All systems operational</text>
<rect x="12" y="72" width="296" height="50" rx="6" ${v('cardBackgroundColor')} data-stroke="${short}-borderColor" stroke="{{values.${short}-borderColor}}"/>
<text x="24" y="93" font-size="12" ${v('bodyFontColor')}>API</text><text x="24" y="111" font-size="11" ${v('bodyFontColorMuted')}>Operational</text>
<text x="12" y="150" font-size="11" text-decoration="underline" ${v('linkFontColor')}>Incident history</text>
<rect x="214" y="134" width="94" height="26" rx="5" ${v('primaryButtonBackgroundColor')}/><text x="231" y="151" font-size="11" ${v('primaryButtonFontColor')}>Subscribe</text>
</svg>`;
}

const LABELS: Record<string, string> = {
  bodyBackgroundColor: 'Page background', headerBackgroundColor: 'Header background', headerFontColor: 'Header text', titleFontColor: 'Titles',
  bodyFontColor: 'Text', bodyFontColorMuted: 'Muted text', navigationFontColor: 'Navigation', linkFontColor: 'Links', cardBackgroundColor: 'Card background',
  borderColor: 'Borders', primaryButtonBackgroundColor: 'Button background', primaryButtonFontColor: 'Button text',
};

const colors = (short: string, scheme: string) => `<fieldset class="theme"><legend>${scheme[0].toUpperCase()}${scheme.slice(1)} colours</legend>
<div class="swatches">${THEME_COLOR_KEYS.map((key) => {
  const id = `${short}-${key}`;
  return `<div>${fieldError(id)}<input type="color" id="${id}" name="${id}" value="{{values.${id}}}" data-preview="${id}"{{#if errors.${id}}} aria-invalid="true" aria-describedby="${id}-error"{{/if}}> <label for="${id}">${LABELS[key]}</label></div>`;
}).join('')}</div>
${preview(short, scheme)}</fieldset>`;

const CARDS = `<fieldset aria-describedby="cards-hint"><legend>Cards and their services</legend><input type="hidden" name="svcs" value="{{svcs}}">
<p class="muted" id="cards-hint">Give each card a position (1 first) and number the services to show on it in their order; leave a service's number empty to leave it off. Fill in the last card to add one.</p>${fieldError('cards')}
{{#each cards}}<fieldset class="card-form"><legend>{{#if id}}Card {{name}}{{else}}New card{{/if}}</legend>
<input type="hidden" name="{{key}}-id" value="{{id}}">
<div><label for="{{key}}-name">Card name</label>{{#if nameError}}<p class="field-error" id="{{key}}-name-error">{{nameError}}</p>{{/if}}<input type="text" id="{{key}}-name" name="{{key}}-name" maxlength="255" value="{{name}}"{{#if nameError}} aria-invalid="true" aria-describedby="{{key}}-name-error"{{/if}}></div>
<div><label for="{{key}}-pos">Card position</label>{{#if posError}}<p class="field-error" id="{{key}}-pos-error">{{posError}}</p>{{/if}}<input type="number" class="pos" id="{{key}}-pos" name="{{key}}-pos" min="1" max="9999" value="{{position}}"{{#if posError}} aria-invalid="true" aria-describedby="{{key}}-pos-error"{{/if}}></div>
{{#if servicesError}}<p class="field-error" role="alert">{{servicesError}}</p>{{/if}}
<div class="positions">{{#each services}}<div><input type="number" class="pos" id="{{../key}}-s{{index}}" name="{{../key}}-s{{index}}" min="1" max="9999" value="{{position}}"{{#if error}} aria-invalid="true" aria-describedby="{{../key}}-s{{index}}-error"{{/if}}> <label for="{{../key}}-s{{index}}">{{name}}</label>{{#if error}}<p class="field-error" id="{{../key}}-s{{index}}-error">{{error}}</p>{{/if}}</div>{{else}}<p class="muted">No services yet: <a href="/console/services{{../../q}}">add one</a>.</p>{{/each}}</div>
{{#if id}}<div class="check"><input type="checkbox" id="{{key}}-remove" name="{{key}}-remove" value="on"{{#if remove}} checked{{/if}}><label for="{{key}}-remove">Remove this card</label></div>{{/if}}
</fieldset>{{/each}}</fieldset>`;

const DOMAIN = `{{#if domain}}<section aria-labelledby="dom-h"><h2 id="dom-h">Custom domain {{page.customDomain}}</h2>
<div class="card"><p>State: <span class="state s-{{domain.status}}">{{domain.status}}</span>{{#if domain.verified}} — the page answers at https://{{page.customDomain}}.{{else}} — until verified, the page answers only at its Vigil address.{{/if}}</p>
<p>Prove the domain is yours in one of two ways, then check (Vigil also checks every 10 minutes):</p>
<ul><li>a DNS TXT record named <code>{{domain.dns.name}}</code> with the value <code>{{domain.dns.value}}</code>, or</li>
<li>the text <code>{{domain.http.body}}</code> served at <code>{{domain.http.url}}</code>.</li></ul>
<p>Then point the domain (CNAME) at your Vigil address.</p>
{{#if canWrite}}${postButton('/console/status-pages/{{page.id}}/domain-check{{q}}', 'Check the domain now')}{{/if}}</div></section>{{/if}}`;

export const STATUS_PAGE = `{{#> layout}}
<h1>{{#if page}}{{page.name}}{{else}}New status page{{/if}}</h1>
{{#if page}}<p><a href="{{page.publicUrl}}">Open the public page</a> · <a href="/console/status-pages/{{page.id}}/subscribers{{q}}">Subscribers</a></p>{{/if}}
${DOMAIN}
{{#if canWrite}}<section aria-labelledby="form-h"><h2 id="form-h">{{#if page}}Edit{{else}}Details{{/if}}</h2>
${formFailed('The status page was not saved')}
<form method="post" action="{{action}}" class="card stack" novalidate>${csrf}
${input('name', 'Name', { max: 255, required: true })}
${input('url', 'Address', { max: 63, required: true, hint: 'The page answers at /status/ and this: 3 to 63 lowercase letters, digits or hyphens.' })}
${textarea('description', 'Description (optional)', 500)}
${input('customDomain', 'Custom domain (optional)', { max: 253, hint: 'Such as status.example.com; the page shows how to verify it once saved.' })}
${input('logo', 'Logo URL (optional)', { type: 'url', max: 2048 })}
${input('logoDark', 'Logo URL for the dark theme (optional)', { type: 'url', max: 2048 })}
${input('favicon', 'Favicon URL (optional)', { type: 'url', max: 2048 })}
${input('redirectTo', 'Send visitors to this URL instead (optional)', { type: 'url', max: 2048, hint: 'While set, the public page redirects here.' })}
${select('defaultTheme', 'Theme shown first', 'themes')}
${fieldError('colors')}
${colors('l', 'light')}
${colors('d', 'dark')}
${CARDS}
<button class="btn" type="submit">{{#if page}}Save status page{{else}}Create status page{{/if}}</button>
</form></section>
{{else}}<dl class="card"><dt>Address</dt><dd>{{page.url}}</dd><dt>Cards</dt><dd>{{#each page.cards}}{{name}} ({{#each services}}{{name}}{{#unless @last}}, {{/unless}}{{/each}}){{#unless @last}}; {{/unless}}{{else}}none{{/each}}</dd></dl>{{/if}}
{{#if page}}${historySection('status-page', true, 'page')}{{/if}}
<p><a href="/console/status-pages{{q}}">All status pages</a></p>
{{/layout}}`;

export const SUBSCRIBERS = `{{#> layout}}
<h1>Subscribers of {{page.name}}</h1>
<p><a href="/console/status-pages/{{page.id}}/subscribers/export.csv{{q}}" download>Export as CSV</a> · <a href="/console/status-pages/{{page.id}}{{q}}">The status page</a></p>
{{#if more}}<p class="muted">Showing the first {{shown}} of {{total}}: export them all as CSV.</p>{{/if}}
{{#if subscribers}}<ul class="rows card">{{#each subscribers}}<li><span class="who">{{address}} <span class="muted">{{type}} · added {{added}}</span></span><span class="state">{{status}}</span>{{#if ../canWrite}}${postButton('/console/status-pages/{{../page.id}}/subscribers/{{id}}/remove{{../q}}', 'Remove<span class="sr"> {{address}}</span>', true)}{{/if}}</li>{{/each}}</ul>
{{else}}<p class="card">No subscribers yet.</p>{{/if}}
{{#if canWrite}}<section aria-labelledby="imp-h"><h2 id="imp-h">Add or import</h2>
{{#if rowErrors}}<div class="error" role="alert"><p>Nothing was added: correct these rows and send the list again.</p><ul>{{#each rowErrors}}<li>{{this}}</li>{{/each}}</ul></div>{{/if}}
{{#if errors.form}}<p class="error" role="alert">{{errors.form}}</p>{{/if}}
<form method="post" action="/console/status-pages/{{page.id}}/subscribers{{q}}" class="card stack" novalidate>${csrf}
<div><label for="rows">Subscribers, one a line</label><p class="muted hint" id="rows-hint">An email address, or <code>EMAIL,address</code> / <code>WEBHOOK,https-url</code>; a first line <code>type,address</code> is a header. At most {{maxRows}} lines. Paste an exported CSV to import it.</p>
<textarea id="rows" name="rows" rows="6" maxlength="{{maxText}}" aria-describedby="rows-hint"{{#if rowErrors}} aria-invalid="true"{{/if}}>{{values.rows}}</textarea></div>
{{#if isAdmin}}<div class="check"><input type="checkbox" id="verified" name="verified" value="on"{{#if values.verified}} checked{{/if}}><label for="verified">Add them as confirmed (no confirmation email; ADMIN only)</label></div>{{/if}}
<button class="btn" type="submit">Add subscribers</button>
</form></section>{{/if}}
{{/layout}}`;
