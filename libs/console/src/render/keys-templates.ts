/** Handlebars source of the API keys screen (ADMIN only), in people's console layout. Every value goes through `{{ }}` (escaped). */
import { FIELD_ERROR, INVALID } from './console-templates';

export const KEYS = `{{#> layout}}
<h1>API keys</h1>
{{#if created}}<section aria-labelledby="new-key-h" class="card"><h2 id="new-key-h">Your new key: {{created.name}}</h2>
<p>Store it now: it is shown only this once.</p>
<pre><code>{{created.apiKey}}</code></pre>
<p class="muted">Send it as <code>Authorization: Bearer …</code>.</p></section>{{/if}}
{{#if keys}}<ul class="rows card">{{#each keys}}<li><span class="who">{{#if name}}{{name}}{{else}}(no name){{/if}} <span class="muted"><code>{{prefix}}…</code> · created {{created}}{{#if revoked}} · revoked {{revokedAt}}{{/if}}{{#if shared}} · also grants other accounts{{/if}}</span></span><span class="state{{#if revoked}} s-FAILED{{/if}}">{{#if revoked}}revoked{{else}}{{role}}{{/if}}</span>
{{#if revocable}}<form method="post" action="/console/api-keys/{{id}}/revoke{{../q}}" class="inline"><input type="hidden" name="csrf" value="{{../csrf}}"><button class="btn danger" type="submit">Revoke {{#if name}}{{name}}{{else}}key {{prefix}}{{/if}}</button></form>{{/if}}</li>{{/each}}</ul>
{{else}}<p class="card">No API keys for this account.</p>{{/if}}
<section aria-labelledby="create-h"><h2 id="create-h">Create a key</h2>
<form method="post" action="/console/api-keys{{q}}" class="card stack" novalidate>
<input type="hidden" name="csrf" value="{{csrf}}">
{{#if errors}}<p class="error" role="alert">No key was created: correct the fields marked below.</p>{{/if}}
<div><label for="name">Name (what uses it)</label>${FIELD_ERROR('name')}<input type="text" id="name" name="name" maxlength="100" required value="{{values.name}}"${INVALID('name')}></div>
<div><label for="role">Role</label>${FIELD_ERROR('role')}<select id="role" name="role"${INVALID('role')}>{{#each roles}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{value}}</option>{{/each}}</select></div>
<button class="btn" type="submit">Create key</button>
</form></section>
<p>Members and invitations are managed on <a href="/console/account{{q}}">your account's page</a>.</p>
{{/layout}}`;
