/** Widths of runs of uptime bars: `.wN` spans N days (no inline style under the CSP). */
const RUN_WIDTHS = Array.from({ length: 90 }, (_, i) => `.w${i + 1}{--n:${i + 1}}`).join('');

/**
 * Vigil's own stylesheet for public pages, served under a name with its hash so it can be cached for a
 * year. Colours come from custom properties set by each page's theme stylesheet.
 */
export const STYLESHEET = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--body-bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;overflow-wrap:anywhere}
a{color:var(--link)}
a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.wrap{max-width:56rem;margin:0 auto;padding:0 1rem}
.skip{position:absolute;left:-10000px}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;margin:0}
.skip:focus{left:1rem;top:1rem;z-index:2;background:var(--card-bg);padding:.5rem}
.bars span{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.top{background:var(--header-bg);color:var(--header-fg);border-bottom:1px solid var(--border)}
.top .wrap{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1rem;padding-top:1rem;padding-bottom:1rem}
.brand{display:flex;align-items:center;gap:.75rem;color:var(--header-fg);text-decoration:none;font-weight:700;font-size:1.25rem;min-width:0}
.brand img{max-height:2.5rem;max-width:12rem}
.logo-dark{display:none}
.top nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
.top nav a{color:var(--nav-fg)}
/* main is also a .wrap, whose padding would win over a plain main rule. */
main.wrap{padding-top:2rem;padding-bottom:2rem}
h1,h2,h3{color:var(--title-fg);line-height:1.25}
h1{font-size:1.5rem;margin:0 0 1rem}
h2{font-size:1.2rem;margin:2rem 0 .75rem}
h3{font-size:1rem;margin:0}
.lead{color:var(--muted);margin-top:0}
.banner{display:flex;align-items:center;gap:.75rem;padding:1rem 1.25rem;border-radius:.5rem;color:#fff;font-weight:600;font-size:1.1rem}
.banner.i-none{background:#15803d}.banner.i-minor{background:#a16207}.banner.i-major{background:#c2410c}.banner.i-critical{background:#b91c1c}.banner.i-maint{background:#1d4ed8}
.icon{display:inline-flex;align-items:center;justify-content:center;flex:none;width:1.5em;height:1.5em;border-radius:50%;font-weight:700;line-height:1;border:2px solid currentColor}
.card{background:var(--card-bg);border:1px solid var(--border);border-radius:.5rem;margin:1rem 0;padding:0}
.card>h2,.card>h3{margin:0;padding:.75rem 1rem;border-bottom:1px solid var(--border);font-size:1.05rem}
.svc{list-style:none;margin:0;padding:0}
.svc>li{padding:.75rem 1rem;border-top:1px solid var(--border)}
.svc>li:first-child{border-top:0}
.svc-head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.25rem 1rem}
.svc-name{font-weight:600;color:var(--fg)}
.rt{color:var(--muted);align-self:center}
.svc-desc{color:var(--muted);font-size:.9rem;margin:.1rem 0 0}
.st{font-weight:600;display:inline-flex;align-items:center;gap:.35rem}
.st-operational{color:var(--ok)}.st-degraded_performance{color:var(--degraded)}.st-partial_outage{color:var(--partial)}.st-major_outage{color:var(--major)}.st-under_maintenance{color:var(--maint)}
.bars{display:flex;list-style:none;margin:.5rem 0 .25rem;padding:0;height:2rem}
.bars li{position:relative;flex:var(--n) 1 0;min-width:0;background:linear-gradient(to right,var(--c) calc(100% - 1px),transparent 0) 0 0/calc(100% / var(--n)) 100% repeat-x}
.bars li:hover span{clip:auto;width:auto;height:auto;overflow:visible;white-space:normal;z-index:1;top:2.25rem;left:0;min-width:10rem;background:var(--card-bg);color:var(--fg);border:1px solid var(--border);padding:.25rem .5rem;border-radius:.25rem}
.b-op{--c:var(--ok)}.b-dg{--c:var(--degraded)}.b-po{--c:var(--partial)}.b-mo{--c:var(--major)}.b-um{--c:var(--maint)}.b-nd{--c:var(--nodata)}
${RUN_WIDTHS}
.legend{display:flex;justify-content:space-between;gap:.5rem;color:var(--muted);font-size:.85rem}
.l30{display:none}
.past{list-style:none;margin:0;padding:0;background:var(--card-bg);border:1px solid var(--border);border-radius:.5rem}
.past>li{padding:.6rem 1rem;border-top:1px solid var(--border)}
.past>li:first-child{border-top:0}
.past>li>a{font-weight:600;color:var(--title-fg)}
.back{margin-top:0}
.incident{background:var(--card-bg);border:1px solid var(--border);border-radius:.5rem;padding:1rem;margin:1rem 0}
.incident h3 a{color:var(--title-fg)}
.meta{color:var(--muted);font-size:.9rem;margin:.25rem 0}
.timeline{list-style:none;margin:.75rem 0 0;padding:0}
.timeline>li{border-left:3px solid var(--border);padding:0 0 .75rem .75rem}
.timeline .upd-status{font-weight:700}
.md p{margin:.25rem 0}
.md pre{overflow-x:auto;white-space:pre-wrap}
.days{list-style:none;padding:0}
.days>li{border-top:1px solid var(--border);padding:.5rem 0}
.muted{color:var(--muted)}
.sub{background:var(--card-bg);border:1px solid var(--border);border-radius:.5rem;padding:1rem;margin-top:2rem}
.sub h2{margin-top:0}
.sub form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
.sub label{display:block;width:100%;font-weight:600}
.sub input[type=email]{flex:1 1 12rem;min-width:0;padding:.5rem;border:1px solid var(--muted);border-radius:.25rem;background:var(--body-bg);color:var(--fg);font:inherit}
.btn{padding:.55rem 1rem;border:0;border-radius:.25rem;background:var(--btn-bg);color:var(--btn-fg);font:inherit;font-weight:600;cursor:pointer}
.pager{display:flex;justify-content:space-between;gap:1rem;margin-top:1.5rem}
footer{color:var(--muted);font-size:.85rem;padding-bottom:2rem}
footer a{color:var(--muted)}
@media (max-width:37.49rem){.bars li.o,.l90{display:none}.l30{display:inline}}
@media (max-width:30rem){.wrap{padding:0 .75rem}h1{font-size:1.3rem}.banner{font-size:1rem}}
`;

/** Vigil's default favicon: a check mark in a circle. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#15803d"/><path d="M9 16.5l4.5 4.5L23 11.5" fill="none" stroke="#fff" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
