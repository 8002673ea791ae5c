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
{{#if signedIn}}<meta name="csrf-token" content="{{csrf}}">{{/if}}
{{#each scripts}}<script src="{{this}}" defer></script>{{/each}}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><div class="wrap">
<a class="brand" href="/console{{q}}">Vigil</a>
{{#if nav}}<nav aria-label="Console"><ul>{{#each nav}}<li><a href="{{href}}"{{#if current}} aria-current="page"{{/if}}>{{text}}</a></li>{{/each}}</ul></nav>{{/if}}
{{#if who}}<span class="muted">{{who}}</span>{{/if}}
{{#if signedIn}}<form method="post" action="/console/sign-out"><input type="hidden" name="csrf" value="{{csrf}}"><button class="btn quiet" type="submit">Sign out</button></form>{{/if}}
</div></header>
<main id="main" class="wrap">
{{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}
{{> @partial-block }}
</main>
</body>
</html>
`;

/** A hidden field per entry of `fields`, then one button: the POST a page's link leads to. */
export const MESSAGE = `{{#> layout}}
<h1>{{heading}}</h1>
{{#each paragraphs}}<p>{{this}}</p>{{/each}}
{{#if form}}<form method="post" action="{{form.action}}">{{#each form.fields}}<input type="hidden" name="{{@key}}" value="{{this}}">{{/each}}<button class="btn" type="submit">{{form.button}}</button></form>{{/if}}
{{#if link}}<p><a href="{{link.href}}">{{link.text}}</a></p>{{/if}}
{{/layout}}`;

export const SIGN_IN = `{{#> layout}}
<h1>Sign in to Vigil</h1>
{{#if sent}}<p class="notice" role="status">Check your inbox. If this address belongs to a Vigil user, we have sent it a sign-in link. The link works once, for 15 minutes.</p>{{/if}}
{{#if error}}<p class="error" id="email-error" role="alert">{{error}}</p>{{/if}}
<form method="post" action="/console/sign-in" class="card stack">
<div><label for="email">Email address</label>
<input id="email" type="email" name="email" required maxlength="254" autocomplete="email" value="{{email}}"{{#if error}} aria-invalid="true" aria-describedby="email-error"{{/if}}></div>
<button class="btn" type="submit">Email me a sign-in link</button>
</form>
<div class="stack"><button class="btn quiet" type="button" id="passkey-sign-in" hidden>Sign in with a passkey</button>
<p id="passkey-status" role="status"></p></div>
{{#if sso}}<p><a class="btn quiet" href="/console/oidc/start">Sign in with SSO</a></p>{{/if}}
<p class="muted">No password: we send a link that signs you in. An administrator can also give you a link made with the Vigil CLI.</p>
{{/layout}}`;

export const CONSOLE = `{{#> layout}}
<h1>Signed in as {{email}}</h1>
{{#if error}}<p class="error" role="alert">{{error}}</p>{{/if}}
<section aria-labelledby="acc-h"><h2 id="acc-h">Your accounts</h2>
{{#if accounts}}<ul class="rows card">{{#each accounts}}<li><span class="who">{{name}} <span class="muted">({{role}})</span></span>{{#if current}}<span aria-current="true">Current account</span>{{else}}<a href="/console/account?account={{id}}">Switch to {{name}}</a>{{/if}}</li>{{/each}}</ul>
{{else}}<p class="muted">You are not a member of any account.</p>{{/if}}
</section>
{{#if account}}<section aria-labelledby="mem-h"><h2 id="mem-h">Members of {{account.name}}</h2>
<ul class="rows card">{{#each members}}<li><span class="who">{{email}}{{#if self}} <span class="muted">(you)</span>{{/if}} <span class="muted">{{role}}</span></span>
{{#if ../admin}}<form class="inline" method="post" action="/console/accounts/{{../account.id}}/members/{{userId}}/role"><input type="hidden" name="csrf" value="{{../csrf}}"><label for="role-{{userId}}">Role of {{email}}</label><select id="role-{{userId}}" name="role">{{#each roles}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{value}}</option>{{/each}}</select><button class="btn quiet" type="submit">Change role</button></form>
<form method="post" action="/console/accounts/{{../account.id}}/members/{{userId}}/remove"><input type="hidden" name="csrf" value="{{../csrf}}"><button class="btn danger" type="submit">Remove {{email}}</button></form>{{/if}}
</li>{{/each}}</ul>
{{#if admin}}<h2 id="inv-h">Invitations</h2>
{{#if invitationUrl}}<div class="card" role="status"><p>Invitation for {{invitationEmail}} created{{#if invitationMailed}} and emailed{{/if}}. The link works once, for 7 days:</p><p><code>{{invitationUrl}}</code></p></div>{{/if}}
{{#if invitations}}<ul class="rows card">{{#each invitations}}<li><span class="who">{{email}} <span class="muted">{{role}}, until <time datetime="{{expiresAt}}">{{expiresText}}</time></span></span>
<form method="post" action="/console/accounts/{{../account.id}}/invitations/{{id}}/revoke"><input type="hidden" name="csrf" value="{{../csrf}}"><button class="btn danger" type="submit">Revoke invitation for {{email}}</button></form></li>{{/each}}</ul>{{else}}<p class="muted">No pending invitations.</p>{{/if}}
<form method="post" action="/console/accounts/{{account.id}}/invitations" class="card stack"><input type="hidden" name="csrf" value="{{csrf}}">
<div><label for="invite-email">Email address to invite</label><input id="invite-email" type="email" name="email" required maxlength="254" autocomplete="off"></div>
<div><label for="invite-role">Role</label><select id="invite-role" name="role"><option value="READ_ONLY">READ_ONLY</option><option value="READ_WRITE">READ_WRITE</option><option value="ADMIN">ADMIN</option></select></div>
<button class="btn" type="submit">Invite</button></form>{{/if}}
</section>{{/if}}
<section aria-labelledby="pk-h"><h2 id="pk-h">Your passkeys</h2>
{{#if passkeyList}}<ul class="rows card">{{#each passkeyList}}<li><span class="who">{{name}} <span class="muted">added <time datetime="{{created_at}}">{{createdText}}</time></span></span>
<form class="inline" method="post" action="/console/passkeys/{{id}}/rename"><input type="hidden" name="csrf" value="{{../csrf}}"><label for="pk-name-{{@index}}">New name of passkey {{name}}</label><input id="pk-name-{{@index}}" type="text" name="name" required maxlength="60" value="{{name}}"><button class="btn quiet" type="submit">Rename</button></form>
<form method="post" action="/console/passkeys/{{id}}/remove"><input type="hidden" name="csrf" value="{{../csrf}}"><button class="btn danger" type="submit">Remove passkey {{name}}</button></form></li>{{/each}}</ul>{{else}}<p class="muted">No passkeys yet. A passkey signs you in without an email.</p>{{/if}}
<form id="passkey-register" class="card stack" hidden><div><label for="passkey-name">Name of the new passkey</label><input id="passkey-name" type="text" name="name" required maxlength="60" value="My passkey"></div>
<button class="btn" type="submit">Add a passkey</button></form>
<p id="passkey-status" role="status"></p>
</section>
<section aria-labelledby="ses-h"><h2 id="ses-h">Your sessions</h2>
<ul class="rows card">{{#each sessions}}<li><span class="who">{{#if current}}<strong>This browser</strong>{{else}}{{agent}}{{/if}} <span class="muted">signed in <time datetime="{{startedAt}}">{{startedText}}</time> by {{method}}</span></span>
{{#unless current}}<form method="post" action="/console/sessions/{{id}}/end"><input type="hidden" name="csrf" value="{{../csrf}}"><button class="btn quiet" type="submit">Sign out this session</button></form>{{/unless}}</li>{{/each}}</ul>
<form method="post" action="/console/sessions/end-all"><input type="hidden" name="csrf" value="{{csrf}}"><button class="btn danger" type="submit">Sign out everywhere</button></form>
</section>
{{/layout}}`;
