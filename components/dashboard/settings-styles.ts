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
.set-table td.set-any{overflow-wrap:anywhere;min-width:6rem}
.set-table button{padding:.25rem .75rem}
.set-badge{display:inline-block;margin-left:.25rem;padding:0 .4rem;border-radius:4px;background:#e6ebfb;color:#1a2f86;font-size:.85rem;white-space:nowrap}
.set-actions{margin-top:.75rem}
.set-mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.dash-card .set-url input{font:inherit;padding:.5rem;border:1px solid #9aa3bd;border-radius:6px;width:100%}
.set-url{display:grid;gap:.4rem;max-width:640px}
`
