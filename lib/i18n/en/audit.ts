// The column heads of the dashboard's audit logs in English: one set for every page that shows one
// (components/dashboard/audit-log.tsx, and the settings page's wider log, whose words include them).
export const audit = { auditLog: 'Audit log', when: 'When', who: 'Who', what: 'What', outcome: 'Outcome' }

export type AuditLabels = typeof audit
