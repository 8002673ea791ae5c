/** The console's stylesheet (sign-in, person and console pages): light and dark by the system's preference, no web fonts, usable from 320 px. */
export const CONSOLE_STYLESHEET = `*,*::before,*::after{box-sizing:border-box}
:root{color-scheme:light dark;--bg:#f8fafc;--fg:#0f172a;--muted:#475569;--card:#fff;--border:#cbd5e1;--link:#1d4ed8;--btn:#1d4ed8;--btn-fg:#fff;--danger:#b91c1c;--ok:#166534;--warn:#92400e}
@media (prefers-color-scheme:dark){:root{--bg:#0f172a;--fg:#e2e8f0;--muted:#a3b1c6;--card:#1e293b;--border:#475569;--link:#93c5fd;--btn:#93c5fd;--btn-fg:#0f172a;--danger:#fca5a5;--ok:#86efac;--warn:#fcd34d}}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;overflow-wrap:anywhere}
a{color:var(--link)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.wrap{max-width:60rem;margin:0 auto;padding:0 1rem}
.skip{position:absolute;left:-10000px}
.skip:focus{left:1rem;top:1rem;z-index:2;background:var(--card);padding:.5rem}
.top{border-bottom:1px solid var(--border);background:var(--card)}
.top .wrap{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1rem;padding-top:.75rem;padding-bottom:.75rem}
.brand{font-weight:700;font-size:1.2rem;color:var(--fg);text-decoration:none}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
nav a[aria-current=page]{font-weight:700}
main{padding-top:1.5rem;padding-bottom:2rem}
h1{font-size:1.5rem;margin:0 0 1rem;line-height:1.25}
h2{font-size:1.2rem;margin:2rem 0 .75rem;line-height:1.25}
.muted{color:var(--muted)}
.card{background:var(--card);border:1px solid var(--border);border-radius:.5rem;padding:1rem;margin:0 0 1rem}
.error{color:var(--danger);font-weight:600}
.notice{color:var(--ok);font-weight:600}
.state{display:inline-block;font-weight:700;font-size:.875rem;border:1px solid currentColor;border-radius:.25rem;padding:0 .375rem}
.s-FAILING,.s-CRITICAL,.s-MAJOR{color:var(--danger)}
.s-LATE,.s-MEDIUM,.s-MINOR{color:var(--warn)}
.s-UP,.s-OPERATIONAL,.s-RESOLVED{color:var(--ok)}
ul.rows{list-style:none;margin:0;padding:0}
ul.rows>li{border-top:1px solid var(--border);padding:.75rem 0;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
ul.rows>li:first-child{border-top:0}
.who{min-width:0;flex:1 1 12rem}
form{margin:0}
form.inline{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
label,legend{display:block;font-weight:600;margin:.5rem 0 .25rem}
fieldset{border:1px solid var(--border);border-radius:.375rem;margin:.75rem 0;padding:.5rem 1rem}
fieldset label{display:inline;font-weight:400}
.check{display:flex;gap:.5rem;align-items:center;margin:.25rem 0}
input[type=email],input[type=text],input[type=search],select,textarea{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--border);border-radius:.375rem;padding:.5rem;max-width:100%;min-height:2.75rem}
input[type=text],textarea{width:100%}
input[type=email]{width:22rem}
input[type=checkbox]{width:1.25rem;height:1.25rem}
[aria-invalid=true]{border-color:var(--danger);border-width:2px}
.field-error{color:var(--danger);font-weight:600;margin:.25rem 0}
.btn{font:inherit;font-weight:600;border:1px solid var(--btn);border-radius:.375rem;padding:.5rem 1rem;min-height:2.75rem;cursor:pointer;background:var(--btn);color:var(--btn-fg);text-decoration:none;display:inline-block}
.btn.quiet{background:transparent;color:var(--link)}
.btn.danger{background:transparent;color:var(--danger);border-color:var(--danger)}
.stack>*+*{margin-top:.75rem}
ol.timeline{list-style:none;margin:0;padding:0}
ol.timeline>li{border-left:3px solid var(--border);padding:.25rem 0 .75rem 1rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--bg);border:1px solid var(--border);border-radius:.375rem;padding:.5rem;margin:.5rem 0}
code{overflow-wrap:anywhere}
/* console status pages, services, maintenance (k-pages) */
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.hint{margin:0 0 .25rem;font-size:.9rem}
input[type=url],input[type=number],input[type=datetime-local]{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--border);border-radius:.375rem;padding:.5rem;max-width:100%;min-height:2.75rem}
input[type=url]{width:100%}
input.pos{width:5.5rem}
input[type=color]{width:2.75rem;height:2.75rem;padding:.125rem;border:1px solid var(--border);border-radius:.375rem;background:var(--bg);vertical-align:middle}
.swatches{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:.25rem 1rem}
.swatches label,.positions label{display:inline;font-weight:400}
.positions{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:.25rem 1rem}
svg.preview{display:block;width:100%;max-width:24rem;height:auto;margin:.75rem 0;border:1px solid var(--border);border-radius:.375rem}
dl.card dt{font-weight:600}
dl.card dd{margin:0 0 .5rem}
/* checks and alert channels (console) */
input[type=text].num{width:6rem}
.runs{display:inline-flex;gap:2px}
.run{display:inline-block;width:.5rem;height:1.25rem;border-radius:1px;background:var(--muted)}
.run.r-RECEIVED,.run.r-EARLY{background:var(--ok)}
.run.r-FAILING{background:var(--danger)}
.run.r-LATE,.run.r-GRACE{background:var(--warn)}
.s-RECEIVED,.s-EARLY,.s-SENT{color:var(--ok)}
.s-GRACE,.s-PENDING{color:var(--warn)}
.s-FAILED{color:var(--danger)}
/* audit: the log's filter, its entries' diffs, a past view */
input[type=datetime-local]{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--border);border-radius:.375rem;padding:.5rem;max-width:100%;min-height:2.75rem}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
form.filters>div{flex:1 1 12rem;min-width:0}
ol.audit{list-style:none;margin:0;padding:0}
ol.audit>li{border-top:1px solid var(--border);padding:.5rem 0;overflow-wrap:anywhere}
ol.audit>li:first-child{border-top:0}
ol.audit p{margin:.25rem 0}
dl.diff{margin:.25rem 0 0}
dl.diff dt{font-weight:600}
dl.diff dd{margin:0 0 .25rem 1rem}
@media (min-width:40rem){dl.diff{display:grid;grid-template-columns:minmax(0,max-content) minmax(0,1fr);gap:.125rem .75rem}dl.diff>div{display:contents}dl.diff dd{margin:0}}
.was{text-decoration:line-through}
ul.pager{list-style:none;padding:0;display:flex;gap:1rem}
.past-view{border:2px solid var(--warn);border-radius:.375rem;padding:.5rem 1rem;margin:.75rem 0}
/* incidents: filters, dates, backfill, pager and the public look of the preview */
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
form.filters>div{flex:1 1 10rem}
input[type=datetime-local]{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--border);border-radius:.375rem;padding:.5rem;max-width:100%;min-height:2.75rem}
.hint{margin:0 0 .25rem;font-size:.9rem}
details>summary{cursor:pointer;font-weight:600;padding:.25rem 0}
.pager{display:flex;justify-content:space-between;gap:1rem;margin:0 0 1rem}
.preview{border-style:dashed}
.preview h3{font-size:1rem;margin:0 0 .5rem}
.preview-name{font-weight:700;font-size:1.1rem;margin:0}
.preview .meta{color:var(--muted);font-size:.9rem;margin:.25rem 0}
.preview .st{font-weight:600;display:inline-flex;align-items:center;gap:.35rem}.preview .st-operational{color:var(--ok)}.preview .st-degraded_performance,.preview .st-partial_outage{color:var(--warn)}.preview .st-major_outage{color:var(--danger)}
.preview .timeline{list-style:none;margin:.5rem 0;padding:0}.preview .timeline>li{border-left:3px solid var(--border);padding:0 0 .5rem .75rem}
.preview .upd-status{font-weight:700}.preview .md p{margin:.25rem 0}
/* incident templates */
dd.as-typed{white-space:pre-wrap;overflow-wrap:anywhere}
`;
