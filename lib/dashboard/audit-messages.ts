// The column heads of the dashboard's audit logs, in each language: one set for every page that shows one
// (components/dashboard/audit-log.tsx, and the settings page's wider log).
import type { Lang } from '../pay-form/messages'

export interface AuditLabels {
  auditLog: string
  when: string
  who: string
  what: string
  outcome: string
}

export const AUDIT_LABELS: Record<Lang, AuditLabels> = {
  en: { auditLog: 'Audit log', when: 'When', who: 'Who', what: 'What', outcome: 'Outcome' },
  ru: { auditLog: 'Журнал действий', when: 'Когда', who: 'Кто', what: 'Что', outcome: 'Результат' },
}
