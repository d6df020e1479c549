// The dashboard's styles, inline in its pages (no stylesheet request, no web fonts); readable from 360 px up. No word,
// number, date or id is ever broken inside itself: what is too wide scrolls inside its own box (a table, a value) or,
// for an id, ends in an ellipsis (the whole id on hover, on focus and on its own page). On a phone a list of names and
// values puts each name above its value: beside a long name (or a nested list) a value would have a few letters'
// room; a table of rows (`dash-rows`, each cell with its column's `data-label`) shows each row as a card of label and
// value lines.
export const dashboardCss = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a2e;background:#f6f7fb}
a{color:#2346c8}
.dash{max-width:1100px;margin:0 auto;padding:1rem}
.dash-top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;margin-bottom:1rem}
.dash-top>span{display:flex;gap:.3rem;min-width:0;max-width:100%;white-space:nowrap}
.dash-top nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
.dash-top nav a[aria-current=page]{font-weight:700}
.dash-card{background:#fff;border:1px solid #dde1ee;border-radius:8px;padding:1rem;margin-bottom:1rem;min-width:0}
.dash-form{display:grid;gap:.4rem;max-width:420px}
.dash-form input,.dash-form select,.dash-inline input,.dash-inline select{font:inherit;padding:.5rem;border:1px solid #9aa3bd;border-radius:6px;width:100%}
button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #2346c8;background:#2346c8;color:#fff;cursor:pointer}
button[disabled]{opacity:.6}
.dash-secondary{background:#fff;color:#2346c8}
.dash-link-button{background:none;border:none;color:#2346c8;text-decoration:underline;padding:.25rem}
.dash-error{color:#b00020;margin:0;min-height:0;max-width:100%;overflow-x:auto}
.dash-ok{color:#106b2e;margin:0}
.dash-inline{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
.dash-inline label{display:grid;gap:.2rem;flex:1 1 12rem}
.dash-table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.95rem}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #e3e6f0;vertical-align:top;white-space:nowrap}
dl{display:grid;grid-template-columns:minmax(7rem,max-content) 1fr;gap:.25rem 1rem;margin:0}
dt{color:#555}
dd{margin:0;min-width:0;overflow-x:auto}
@media (max-width:560px){dl{grid-template-columns:minmax(0,1fr);gap:0}dt{font-size:.85rem;margin-top:.4rem}
.dash-rows thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
.dash-rows,.dash-rows tbody,.dash-rows tr{display:block}
.dash-rows tr{border-bottom:1px solid #e3e6f0;padding:.5rem 0}
.dash-rows td{display:grid;grid-template-columns:6.5rem minmax(0,1fr);gap:.75rem;border:0;padding:.1rem 0;white-space:normal}
.dash-rows td::before{content:attr(data-label);color:#555;font-size:.85rem}
.dash-rows td>*{min-width:0}.dash-rows td>span{overflow-x:auto;white-space:nowrap}.dash-rows td>span.dash-lines{white-space:normal}.dash-rows td .dash-reason{min-width:0}}
.dash-id{display:inline-block;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;vertical-align:bottom}
td .dash-id{max-width:16rem}
td .dash-id:hover,td .dash-id:focus{max-width:none}
.dash-scroll{white-space:nowrap;overflow-x:auto}
.dash-word{white-space:nowrap}
.dash-hint{color:#555;font-size:.85rem}
.dash-reason{color:#444}
td .dash-reason{display:block;white-space:normal;min-width:14rem;max-width:28rem}
.dash-reason code{font-size:.85em;color:#555}
.dash-confirm{border:2px solid #2346c8;border-radius:8px;padding:.75rem;margin-top:.5rem}
h1{font-size:1.4rem;margin:.25rem 0 1rem;min-width:0}
h2{font-size:1.15rem;margin:0 0 .5rem}
`
