// The site's notification deliveries, newest first, a page at a time (by cursor), of one state if asked (the
// overview links each state's): what each told of (a link to its payment's page), where it went, how its delivery
// stands, and a link to its attempts, its body and "Resend". An unknown state is no filter.
import { SinceNotice } from '@/components/dashboard/since-notice'
import { sinceDay } from '@/lib/dashboard/list-since'
import Link from 'next/link'
import { CodeWord } from '@/components/dashboard/code-word'
import { NotificationResource } from '@/components/dashboard/notification-resource'
import { notificationsCss } from '@/components/dashboard/notifications-styles'
import { listNotifications, NOTIFICATION_STATES, type NotificationState } from '@/lib/dashboard/dashboard-notifications'
import { codeWord, serviceMessage } from '@/lib/i18n/code-words'
import { fill } from '@/lib/i18n/fill'
import { shownTime } from '@/lib/i18n/format'
import { textsOf } from '@/lib/i18n/languages'
import { currentLanguage, requireSession } from '../../dashboard-request'

type Search = { after?: string | string[]; state?: string | string[]; since?: string | string[] }
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? ''

export default async function NotificationsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const session = await requireSession()
  const lang = await currentLanguage()
  const t = textsOf(lang).notifications
  const codes = textsOf(lang).codes
  const sp = await searchParams
  const after = one(sp.after)
  const state = (NOTIFICATION_STATES as readonly string[]).includes(one(sp.state))
    ? (one(sp.state) as NotificationState)
    : undefined
  // made since a day: the overview's links (its figures count its days alone)
  const since = sinceDay(one(sp.since))
  const { rows, nextCursor } = await listNotifications(session.siteId, after || undefined, state, since)
  // the list's address with its filters kept (none: the plain address)
  const listHref = (extra: Record<string, string>) => {
    const query = new URLSearchParams({ ...(state ? { state } : {}), ...(since ? { since } : {}), ...extra }).toString()
    return query ? `/dashboard/notifications?${query}` : '/dashboard/notifications'
  }
  return (
    <>
      <title>{`${t.title} · Payin`}</title>
      <style>{notificationsCss}</style>
      <h1>{t.title}</h1>
      <p className="notif-muted">{t.intro}</p>
      <form method="get" className="dash-card dash-inline">
        <label>
          {t.state}
          <select name="state" defaultValue={state ?? ''}>
            <option value="">{t.anyState}</option>
            {NOTIFICATION_STATES.map((s) => (
              <option key={s} value={s}>
                {codeWord(codes.notificationState, s)}
              </option>
            ))}
          </select>
        </label>
        {since && <input type="hidden" name="since" value={since} />}
        <button type="submit">{t.find}</button>
      </form>
      {since && (
        <SinceNotice
          day={since}
          lang={lang}
          allHref={state ? `/dashboard/notifications?${new URLSearchParams({ state })}` : '/dashboard/notifications'}
        />
      )}
      <div className="dash-card dash-table-wrap">
        {rows.length === 0 ? (
          <p>{t.none}</p>
        ) : (
          <table className="dash-rows">
            <thead>
              <tr>
                <th scope="col">{t.created}</th>
                <th scope="col">{t.type}</th>
                <th scope="col">{t.resource}</th>
                <th scope="col">{t.status}</th>
                <th scope="col">{t.url}</th>
                <th scope="col">{t.state}</th>
                <th scope="col">{t.attempts}</th>
                <th scope="col">{t.lastAttempt}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((n) => (
                <tr key={n.id}>
                  <td data-label={t.created}>
                    <span className="dash-lines">
                      <time dateTime={n.createdAt.toISOString()}>{shownTime(n.createdAt, lang)}</time>
                      <br />
                      <Link
                        prefetch={false}
                        href={`/dashboard/notifications/${n.id}`}
                        aria-label={fill(t.detailsOf, {
                          type: codeWord(codes.notificationType, n.type),
                          id: n.resourceId,
                        })}
                      >
                        {t.details}
                      </Link>
                    </span>
                  </td>
                  <td data-label={t.type}>
                    <CodeWord code={n.type} words={codes.notificationType} />
                  </td>
                  <td className="notif-wrap" data-label={t.resource}>
                    <span>
                      <NotificationResource
                        type={n.type}
                        resourceId={n.resourceId}
                        paymentId={n.paymentId}
                        ofPayment={t.ofPayment}
                      />
                    </span>
                  </td>
                  <td data-label={t.status}>
                    <CodeWord code={n.status} words={codes.notificationStatus} />
                  </td>
                  <td className="notif-wrap" data-label={t.url}>
                    <span>{n.url}</span>
                  </td>
                  <td className={`notif-state-${n.state}`} data-label={t.state}>
                    <CodeWord code={n.state} words={codes.notificationState} />
                  </td>
                  <td data-label={t.attempts}>{n.attempts}</td>
                  <td className="notif-wrap" data-label={t.lastAttempt}>
                    {n.lastAttempt
                      ? `${n.lastAttempt.httpStatus ?? (n.lastAttempt.error ? serviceMessage(codes, n.lastAttempt.error) : '—')} · ${fill(t.ms, { ms: String(n.lastAttempt.durationMs) })}`
                      : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="dash-inline">
          {after && (
            <Link prefetch={false} href={listHref({})}>
              {t.firstPage}
            </Link>
          )}
          {nextCursor && (
            <Link prefetch={false} href={listHref({ after: nextCursor })}>
              {t.nextPage}
            </Link>
          )}
        </p>
      </div>
    </>
  )
}
