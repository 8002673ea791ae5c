/** The console's stylesheet: system colours light and dark, no web fonts, readable from 320 px. */
export const CONSOLE_STYLESHEET = `*,*::before,*::after{box-sizing:border-box}
:root{color-scheme:light dark;--bg:#f8fafc;--fg:#0f172a;--muted:#475569;--card:#fff;--border:#cbd5e1;--link:#1d4ed8;--btn:#1d4ed8;--btn-fg:#fff;--danger:#b91c1c;--ok:#166534}
@media (prefers-color-scheme:dark){:root{--bg:#0f172a;--fg:#e2e8f0;--muted:#a3b1c6;--card:#1e293b;--border:#475569;--link:#93c5fd;--btn:#93c5fd;--btn-fg:#0f172a;--danger:#fca5a5;--ok:#86efac}}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;overflow-wrap:anywhere}
a{color:var(--link)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.wrap{max-width:48rem;margin:0 auto;padding:0 1rem}
.skip{position:absolute;left:-10000px}
.skip:focus{left:1rem;top:1rem;z-index:2;background:var(--card);padding:.5rem}
.top{border-bottom:1px solid var(--border);background:var(--card)}
.top .wrap{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1rem;padding-top:.75rem;padding-bottom:.75rem}
.brand{font-weight:700;font-size:1.2rem;color:var(--fg);text-decoration:none}
main{padding-top:1.5rem;padding-bottom:2rem}
h1{font-size:1.5rem;margin:0 0 1rem;line-height:1.25}
h2{font-size:1.2rem;margin:2rem 0 .75rem;line-height:1.25}
.muted{color:var(--muted)}
.card{background:var(--card);border:1px solid var(--border);border-radius:.5rem;padding:1rem;margin:0 0 1rem}
.error{color:var(--danger);font-weight:600}
.notice{color:var(--ok);font-weight:600}
ul.rows{list-style:none;margin:0;padding:0}
ul.rows>li{border-top:1px solid var(--border);padding:.75rem 0;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
ul.rows>li:first-child{border-top:0}
.who{min-width:0;flex:1 1 12rem}
form{margin:0}
form.inline{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
label{display:block;font-weight:600;margin:.5rem 0 .25rem}
form.inline label{display:inline;margin:0}
input[type=email],input[type=text],select{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--border);border-radius:.375rem;padding:.5rem;max-width:100%;min-height:2.75rem}
input[type=email],input[type=text]{width:22rem}
.btn{font:inherit;font-weight:600;border:1px solid var(--btn);border-radius:.375rem;padding:.5rem 1rem;min-height:2.75rem;cursor:pointer;background:var(--btn);color:var(--btn-fg)}
.btn.quiet{background:transparent;color:var(--link)}
.btn.danger{background:transparent;color:var(--danger);border-color:var(--danger)}
.stack>*+*{margin-top:.75rem}
code{overflow-wrap:anywhere}
`;
