// How a dashboard action on a payment, a bill or a notification ended, as its audit entry stores it (codes and the
// service's English), in the page's words: a status with its reason (`DECLINED (INVALID_AMOUNT)`), a notification's
// state, or `refused: <the service's message>`.
import { serviceMessage } from '@/lib/i18n/code-words'
import type { CodeWords } from '@/lib/i18n/en/codes'
import { fill } from '@/lib/i18n/fill'
import { StatusWithReason } from './code-word'

/** the status table of each action's outcome */
const statusTable = (codes: CodeWords, action: string): Record<string, string> =>
  ({
    capture: codes.captureStatus,
    refund: codes.refundStatus,
    resend: codes.notificationState,
    bill: codes.billStatus,
  })[action] ?? {}

export function AuditOutcome({ action, outcome, codes }: { action: string; outcome: string; codes: CodeWords }) {
  const refused = /^refused: (.*)$/s.exec(outcome)
  if (refused) return <>{fill(codes.refused, { reason: serviceMessage(codes, refused[1]) })}</>
  const status = /^([A-Z_]+)(?: \(([A-Z_0-9]+)\))?$/.exec(outcome)
  if (!status) return <>{outcome}</>
  return (
    <StatusWithReason
      status={status[1]}
      reason={status[2]}
      statusWords={statusTable(codes, action)}
      reasonWords={codes.reason}
    />
  )
}

/** an action's name in the page's words */
export const auditAction = (codes: CodeWords, action: string) =>
  Object.hasOwn(codes.auditAction, action) ? codes.auditAction[action] : action
