// The Bills pages' few styles beyond the dashboard's own (components/dashboard/dashboard-styles.ts),
// rendered inline in those pages; readable from 360 px up.
export const billsCss = `
.bill-new{display:inline-block;padding:.5rem 1rem;border-radius:6px;background:#2346c8;color:#fff;text-decoration:none;margin-bottom:1rem}
.bill-new:focus-visible,.bill-form :focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.bill-hint{color:#555;font-size:.9rem;margin:0 0 .4rem}
.dash-form .bill-check{display:flex;gap:.5rem;align-items:center}
.dash-form .bill-check input{width:auto;margin:0}
.bill-form label{font-weight:600}
.bill-link{font-family:ui-monospace,monospace;white-space:nowrap;overflow-x:auto}
.bill-qr{width:220px;max-width:100%;margin-top:.75rem;background:#fff}
.bill-qr svg{display:block;width:100%;height:auto}
.bill-table th,.bill-table td{overflow-wrap:normal}
@media (max-width:30rem){.bill-fields dl{grid-template-columns:1fr;gap:0}.bill-fields dd{margin-bottom:.5rem}}
`
