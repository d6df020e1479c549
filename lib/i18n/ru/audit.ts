// The column heads of the dashboard's audit logs in Russian.
import type { AuditLabels } from '../en/audit'

export const audit: AuditLabels = {
  auditLog: 'Журнал действий',
  when: 'Когда',
  who: 'Кто',
  what: 'Что',
  outcome: 'Результат',
}
