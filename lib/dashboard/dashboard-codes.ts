// The codes the dashboard shows, table by table, each from where the service defines it (the API's schemas, the
// registries, the acquirer): every one has its words in every language (lib/i18n/<lang>/codes.ts), which
// tests/unit/dashboard-code-words.test.ts checks, so that a new code without words fails there, and no English code
// is left on a page in another language (e2e/dashboard-language.spec.ts).
import { DECLINE_REASONS } from '../acquirer/sandbox-acquirer'
import { notificationSchema } from '../api/notification-endpoints'
import { BILL_STATES } from '../bills/bill-wire'
import { BILL_FLAGS } from '../bills/bill-request'
import type { CodeWords } from '../i18n/en/codes'
import { STORED_METHOD_TYPES } from '../payments/methods'
import { PAYMENT_STATUSES } from '../payments/payment-wire'
import { HOLD_STATES } from './hold-state'

type Table = {
  [K in keyof CodeWords]: CodeWords[K] extends Record<string, string> ? (K extends 'messages' ? never : K) : never
}[keyof CodeWords]

/** each table of code words and the codes it must have words for */
export const CODE_TABLES: Record<Exclude<Table, 'auditAction'>, readonly string[]> = {
  paymentStatus: PAYMENT_STATUSES,
  holdState: HOLD_STATES,
  billStatus: BILL_STATES,
  captureStatus: PAYMENT_STATUSES,
  refundStatus: PAYMENT_STATUSES,
  notificationStatus: notificationSchema.shape.status.options,
  notificationState: notificationSchema.shape.state.options,
  notificationType: notificationSchema.shape.type.options,
  method: STORED_METHOD_TYPES,
  flag: BILL_FLAGS,
  reason: DECLINE_REASONS,
}
