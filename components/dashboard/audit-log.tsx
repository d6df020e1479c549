// The dashboard's audit log of one thing (a payment, a bill, a notification): who (the session's token
// hint) did what, when, and how it ended, oldest first. The settings page has its own, wider one.
import { shownTime } from '@/lib/i18n/format'
import { textsOf, type Lang } from '@/lib/i18n/languages'
import { auditAction, AuditOutcome } from './audit-outcome'

export interface AuditRow {
  at: Date
  actor: string
  action: string
  outcome: string
}

/** `withAction: false` leaves out the action's column, where every entry is the same action */
export function AuditLog({
  id,
  rows,
  lang,
  empty,
  className,
  withAction = true,
}: {
  id: string
  rows: AuditRow[]
  lang: Lang
  empty: string
  className?: string
  withAction?: boolean
}) {
  const t = textsOf(lang).audit
  const codes = textsOf(lang).codes
  return (
    <section className="dash-card dash-table-wrap" aria-labelledby={id}>
      <h2 id={id}>{t.auditLog}</h2>
      {rows.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <table className={className}>
          <thead>
            <tr>
              <th scope="col">{t.when}</th>
              <th scope="col">{t.who}</th>
              {withAction && <th scope="col">{t.what}</th>}
              <th scope="col">{t.outcome}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((a, i) => (
              <tr key={i}>
                <td>
                  <time dateTime={a.at.toISOString()}>{shownTime(a.at, lang)}</time>
                </td>
                <td>{a.actor}</td>
                {withAction && <td>{auditAction(codes, a.action)}</td>}
                <td>
                  <AuditOutcome action={a.action} outcome={a.outcome} codes={codes} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
