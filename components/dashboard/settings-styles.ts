// The settings page's own styles, beside the dashboard's (components/dashboard/dashboard-styles.ts):
// secrets and tokens shown once (long unbroken strings that must wrap at 360 px), the tokens' table.
export const settingsCss = `
.set-once{display:grid;gap:.4rem;margin-top:.75rem;padding:.75rem;border:2px solid #106b2e;border-radius:8px;background:#f3faf5}
.set-once textarea{font:.95rem/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;width:100%;padding:.5rem;border:1px solid #9aa3bd;border-radius:6px;resize:none;overflow-wrap:anywhere;word-break:break-all;white-space:pre-wrap;background:#fff;color:inherit}
.set-once h3{font-size:1rem;margin:0}
.set-note{margin:0;color:#444}
.set-check{display:flex;gap:.5rem;align-items:flex-start;margin:.5rem 0}
.set-check input{margin-top:.3rem;width:auto}
.set-table td,.set-table th{overflow-wrap:normal}
.set-table td.set-any{min-width:6rem}
.set-table button{padding:.25rem .75rem}
@media (max-width:40rem){
.set-table thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.set-table,.set-table tbody,.set-table tr,.set-table td{display:block}
.set-table tr{padding:.5rem 0;border-bottom:1px solid #e3e6f0}
.set-table td{border:none;padding:.1rem 0}
.set-table td:empty{display:none}
.set-table td::before{content:attr(data-label);display:inline-block;min-width:6.5rem;margin-right:.5rem;color:#555;font-family:system-ui,sans-serif}
.set-table td.set-any{min-width:0}
}
.set-badge{display:inline-block;margin-left:.25rem;padding:0 .4rem;border-radius:4px;background:#e6ebfb;color:#1a2f86;font-size:.85rem;white-space:nowrap}
.set-actions{margin-top:.75rem}
.set-mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.dash-card .set-url input{font:inherit;padding:.5rem;border:1px solid #9aa3bd;border-radius:6px;width:100%}
.set-url{display:grid;gap:.4rem;max-width:640px}
.set-clock{display:grid;gap:.4rem;max-width:640px}
.set-holds{display:grid;gap:.4rem;max-width:640px}
.set-frames{display:grid;gap:.4rem;max-width:640px}
.set-themes{list-style:none;margin:0 0 1rem;padding:0;display:grid;gap:.5rem}
.set-themes li{display:flex;flex-wrap:wrap;gap:.6rem;align-items:center;padding:.4rem 0;border-bottom:1px solid #e3e6f0}
.set-themes img{max-width:96px;height:32px;width:auto}
.set-theme-swatch{display:inline-flex;padding:.3rem;border:1px solid #9aa3bd;border-radius:6px}
.set-theme-swatch span{padding:.1rem .4rem;border-radius:4px;font-weight:600}
.set-theme-what{flex:1 1 10rem;overflow-wrap:anywhere}
.set-theme-acts{display:flex;gap:.4rem}
.set-theme-form{display:grid;gap:.6rem;max-width:640px}
.set-theme-form h3{font-size:1rem;margin:.5rem 0 0}
.set-theme-field{display:grid;gap:.25rem}
.dash-card .set-theme-field input:not([type=checkbox]){font:inherit;padding:.5rem;border:1px solid #9aa3bd;border-radius:6px;width:100%}
.dash-card .set-frames textarea{font:inherit;padding:.5rem;border:1px solid #9aa3bd;border-radius:6px;width:100%}
.set-holds fieldset{border:0;margin:0;padding:0}
.set-holds input[type=number]{height:2.6rem;max-width:10rem}
.set-clock input,.set-clock select{height:2.6rem}
.set-clock-now{margin:.75rem 0}
`
