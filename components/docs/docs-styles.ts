// The API reference page's styles, inline in the page (no stylesheet request, no web fonts, no script);
// readable from 360 px up: code wraps instead of scrolling sideways.
export const docsCss = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a2e;background:#f6f7fb}
a{color:#2346c8}
.docs{max-width:1000px;margin:0 auto;padding:1rem;overflow-wrap:anywhere}
.docs h1{font-size:1.5rem;margin:.25rem 0 .5rem}
.docs h2{font-size:1.25rem;margin:2rem 0 .75rem;padding-top:.5rem;border-top:2px solid #dde1ee}
.docs h3{font-size:1.05rem;margin:0 0 .25rem;display:flex;flex-wrap:wrap;gap:.25rem .5rem;align-items:baseline}
.docs h4{font-size:.95rem;margin:1rem 0 .25rem;color:#333}
.docs-card{background:#fff;border:1px solid #dde1ee;border-radius:8px;padding:1rem;margin-bottom:1rem}
.docs-method{display:inline-block;min-width:3.5rem;text-align:center;font:700 .8rem/1.6 ui-monospace,monospace;border-radius:4px;padding:0 .4rem;color:#fff;background:#555}
.docs-method-get{background:#2e7d32}.docs-method-put{background:#a15c00}.docs-method-post{background:#2346c8}
.docs-path{font:600 .95rem ui-monospace,monospace;word-break:break-all}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85rem}
code{background:#eef0f7;border-radius:3px;padding:0 .2rem}
pre{background:#1a1a2e;color:#f3f4f8;border-radius:6px;padding:.75rem;margin:.25rem 0 .75rem;white-space:pre-wrap;overflow-wrap:anywhere;word-break:break-all}
pre code{background:none;padding:0}
.docs-toc ul{margin:.25rem 0;padding-left:1.25rem}
.docs-toc li{margin:.1rem 0}
.docs-fields{list-style:none;margin:0;padding:0}
.docs-fields li{border-top:1px solid #e3e6f0;padding:.35rem 0 .35rem}
.docs-fields .docs-fields{margin:.25rem 0 0 .75rem;padding-left:.5rem;border-left:2px solid #e3e6f0}
.docs-name{font:600 .9rem ui-monospace,monospace}
.docs-type{color:#4a4f6a;font-size:.85rem}
.docs-required{color:#b00020;font-size:.8rem}
.docs-note{color:#4a4f6a;font-size:.9rem;margin:.15rem 0}
.docs-responses{list-style:none;padding:0;margin:0}
.docs-responses>li{border-top:1px solid #e3e6f0;padding:.4rem 0}
.docs-status{font:700 .9rem ui-monospace,monospace;margin-right:.5rem}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;padding:.35rem .4rem;border-bottom:1px solid #e3e6f0;vertical-align:top}
details>summary{cursor:pointer;color:#2346c8}
@media (max-width:600px){
  table,thead,tbody,tr,th,td{display:block}
  thead{display:none}
  tr{border-top:1px solid #dde1ee;padding:.25rem 0}
  td{border:none;padding:.1rem 0}
}
`
