// The Notifications pages' own few styles, next to the dashboard's (dashboard-styles.ts): bodies and long
// URLs scroll inside their box (never broken mid-word), so a 360 px screen never scrolls sideways.
export const notificationsCss = `
.notif-pre{white-space:pre;overflow-x:auto;margin:0;padding:.75rem;background:#f6f7fb;border:1px solid #e3e6f0;border-radius:6px;font:.85rem/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.notif-wrap{white-space:nowrap}
.notif-muted{color:#555;font-size:.9rem}
.notif-state-FAILED{color:#b00020;font-weight:600}
.notif-state-DELIVERED{color:#106b2e}
`
