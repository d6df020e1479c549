// One notification of the site: what it told of and where it went, how its delivery stands, every
// attempt (time, HTTP status, duration, error), the body exactly as posted, "Resend", and the audit log
// of its re-sends. Another site's notification is not found.
import Link from 'next/link'
import { notFound } from 'next/navigation'
import { AuditLog } from '@/components/dashboard/audit-log'
import { CodeWord } from '@/components/dashboard/code-word'
import { NotificationResendForm } from '@/components/dashboard/notification-resend-form'
import { NotificationResource } from '@/components/dashboard/notification-resource'
import { notificationsCss } from '@/components/dashboard/notifications-styles'
import { settings } from '@/lib/config'
import { notificationDetails } from '@/lib/dashboard/dashboard-notifications'
import { codeWord, serviceMessage } from '@/lib/i18n/code-words'
import { fill } from '@/lib/i18n/fill'
import { shownTime } from '@/lib/i18n/format'
import { localeOf, textsOf } from '@/lib/i18n/languages'
import { currentLanguage, requireSession } from '../../../dashboard-request'

export default async function NotificationPage({ params }: { params: Promise<{ notificationId: string }> }) {
  const session = await requireSession()
  const lang = await currentLanguage()
  const t = textsOf(lang).notifications
  const codes = textsOf(lang).codes
  const n = await notificationDetails(session.siteId, (await params).notificationId)
  if (!n) notFound()
  const time = (at: Date) => <time dateTime={at.toISOString()}>{shownTime(at, lang)}</time>
  return (
    <>
      <title>{`${t.notification} ${codeWord(codes.notificationType, n.type)} ${n.resourceId} · Payin`}</title>
      <style>{notificationsCss}</style>
      <p>
        <Link prefetch={false} href="/dashboard/notifications">
          {t.backToList}
        </Link>
      </p>
      <h1>
        {t.notification} <CodeWord code={n.type} words={codes.notificationType} />{' '}
        <span className="dash-id" title={n.resourceId}>
          {n.resourceId}
        </span>
      </h1>
      <section className="dash-card" aria-labelledby="notif-notification">
        <h2 id="notif-notification">{t.notification}</h2>
        <dl>
          <dt>{t.notificationId}</dt>
          <dd className="dash-scroll">{n.id}</dd>
          <dt>{t.type}</dt>
          <dd>
            <CodeWord code={n.type} words={codes.notificationType} />
          </dd>
          <dt>{t.resource}</dt>
          <dd>
            <NotificationResource
              type={n.type}
              resourceId={n.resourceId}
              paymentId={n.paymentId}
              ofPayment={t.ofPayment}
            />
          </dd>
          <dt>{t.status}</dt>
          <dd>
            <CodeWord code={n.status} words={codes.notificationStatus} />
          </dd>
          <dt>{t.url}</dt>
          <dd className="dash-scroll">{n.url}</dd>
          <dt>{t.state}</dt>
          <dd className={`notif-state-${n.state}`}>
            <CodeWord code={n.state} words={codes.notificationState} />
          </dd>
          <dt>{t.attempts}</dt>
          <dd>{n.attempts}</dd>
          <dt>{t.created}</dt>
          <dd>{time(n.createdAt)}</dd>
          {n.deliveredAt && (
            <>
              <dt>{t.delivered}</dt>
              <dd>{time(n.deliveredAt)}</dd>
            </>
          )}
          {n.nextAttemptAt && (
            <>
              <dt>{t.nextAttempt}</dt>
              <dd>{time(n.nextAttemptAt)}</dd>
            </>
          )}
        </dl>
      </section>
      <section className="dash-card" aria-labelledby="notif-resend">
        <h2 id="notif-resend">{t.resend}</h2>
        <NotificationResendForm
          notificationId={n.id}
          url={n.url}
          t={t}
          codes={codes}
          locale={localeOf(lang)}
          timeZone={settings().timeZone}
        />
      </section>
      <section className="dash-card dash-table-wrap" aria-labelledby="notif-attempts">
        <h2 id="notif-attempts">{t.attemptLog}</h2>
        {n.attemptLog.length === 0 ? (
          <p>{t.noAttempts}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t.time}</th>
                <th scope="col">{t.httpStatus}</th>
                <th scope="col">{t.duration}</th>
                <th scope="col">{t.error}</th>
              </tr>
            </thead>
            <tbody>
              {n.attemptLog.map((a, i) => (
                <tr key={i}>
                  <td>{time(a.at)}</td>
                  <td>{a.httpStatus ?? '—'}</td>
                  <td>{fill(t.ms, { ms: String(a.durationMs) })}</td>
                  <td className="notif-wrap">{a.error ? serviceMessage(codes, a.error) : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="dash-card" aria-labelledby="notif-body">
        <h2 id="notif-body">{t.body}</h2>
        <p className="notif-muted">{t.bodyHelp}</p>
        <pre className="notif-pre">{n.body}</pre>
      </section>
      <AuditLog id="notif-audit" rows={n.audit} lang={lang} empty="—" />
    </>
  )
}
