// The payment page's styles, inlined into its HTML (no stylesheet request before the first paint):
// system fonts only, readable from 360 px up.
export const PAY_PAGE_CSS = `body { margin:0 }
.pay { --ink:#1d2330; --muted:#5b6475; --line:#d5d9e0; --accent:#1d4ed8; --bad:#b42318; --good:#067647;
  min-height:100vh; background:#f4f5f7; color:var(--ink); padding:1.5rem .75rem; box-sizing:border-box;
  font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif }
.pay *, .pay *::before, .pay *::after { box-sizing:border-box }
.pay-card { max-width:26rem; margin:0 auto; background:#fff; border-radius:14px; box-shadow:0 1px 4px #0002; padding:1.25rem }
.pay h1 { font-size:1.3rem; margin:0 0 .75rem }
.pay-summary { margin:0 0 1rem; display:grid; gap:.35rem }
.pay-summary div { display:flex; justify-content:space-between; gap:1rem; flex-wrap:wrap }
.pay-summary dt { color:var(--muted) } .pay-summary dd { margin:0; font-weight:600; text-align:right; overflow-wrap:anywhere }
.pay-amount { font-size:1.6rem }
.pay fieldset { border:0; padding:0; margin:0 0 1rem }
.pay legend { font-weight:600; margin-bottom:.4rem }
.pay-methods { display:flex; gap:.5rem; flex-wrap:wrap }
.pay-methods label { flex:1 1 8rem; border:1px solid var(--line); border-radius:8px; padding:.55rem .7rem; display:flex; gap:.45rem; align-items:center; cursor:pointer }
.pay-methods label:has(input:checked) { border-color:var(--accent); box-shadow:0 0 0 1px var(--accent) }
.pay-field { margin-bottom:.9rem }
.pay-field label { display:flex; justify-content:space-between; font-weight:600; margin-bottom:.25rem }
.pay-field input { width:100%; font:inherit; padding:.65rem .75rem; border:1px solid var(--line); border-radius:8px; background:#fff; color:var(--ink) }
.pay-field input:focus-visible, .pay button:focus-visible, .pay-methods input:focus-visible { outline:3px solid #93b4ff; outline-offset:1px }
.pay-field input[aria-invalid="true"] { border-color:var(--bad) }
.pay-row { display:grid; grid-template-columns:1fr 1fr; gap:.75rem; align-items:end }
.pay-hint { color:var(--muted); font-size:.85rem; margin-top:.2rem }
.pay-error { color:var(--bad); font-size:.9rem; margin-top:.25rem }
.pay-brand { color:var(--muted); font-weight:500 }
.pay button.pay-submit { width:100%; font:inherit; font-weight:600; padding:.8rem; border:0; border-radius:8px; background:var(--accent); color:#fff; cursor:pointer }
.pay button.pay-submit[disabled] { opacity:.6; cursor:progress }
.pay-alert { border-radius:8px; padding:.7rem .8rem; margin-bottom:1rem; background:#fef3f2; color:var(--bad); border:1px solid #fecdca }
.pay-status { min-height:1.2em; color:var(--muted); margin:.75rem 0 0 }
.pay-notice { color:var(--muted); margin:.5rem 0 0 } .pay-notice:empty { display:none }
.pay-note { color:var(--muted); font-size:.82rem; margin-top:1rem }
.pay-result { text-align:center; padding:1rem 0 }
.pay-result .pay-icon { font-size:2.4rem; line-height:1 }
.pay-result.good .pay-icon { color:var(--good) } .pay-result.bad .pay-icon { color:var(--bad) }
.pay-visually-hidden { position:absolute; width:1px; height:1px; overflow:hidden; clip:rect(0 0 0 0); white-space:nowrap }
.pay-link { color:var(--accent); font-weight:600 }
.pay-sbp { text-align:center } .pay-sbp img { max-width:100%; height:auto; image-rendering:pixelated }
.pay-sbp-open { display:none; padding:.8rem; border-radius:8px; background:var(--accent); color:#fff; font-weight:600; text-decoration:none }
@media (max-width:40rem) { .pay-sbp-qr { display:none } .pay-sbp-open { display:block } }
`
