// The overview (the dashboard's first page once signed in): four cards, each a chart with its words, a table of its
// figures (in a <details>: a screen reader reads the table, the eye the chart) and a link to the list it counts.
// Everything written in the page's language: words, numbers, amounts and days.
import Link from 'next/link'
import type { ReactNode } from 'react'
import type { Overview } from '@/lib/dashboard/dashboard-overview'
import { DELIVERY_STATES, OVERVIEW_DAYS, TOP_REASONS } from '@/lib/dashboard/dashboard-overview'
import { codeWord } from '@/lib/i18n/code-words'
import { fill } from '@/lib/i18n/fill'
import { shownAmount, shownCount, shownDay, shownShare, shownTime } from '@/lib/i18n/format'
import { textsOf, type Lang } from '@/lib/i18n/languages'
import { Reason } from './code-word'
import { DayBars, overviewCss, PartsBar, RankedBars } from './overview-charts'

const STATE_CLASS: Record<string, string> = { DELIVERED: 'paid', PENDING: 'pending', FAILED: 'declined' }

/** the day with the most of `values` (the first such), and that most */
function most(o: Overview, values: (d: Overview['days'][number]) => number | bigint) {
  let at = o.days[0]
  for (const d of o.days) if (values(d) > values(at)) at = d
  return { day: at.day, value: values(at) }
}

function Legend({ items }: { items: { className: string; text: string }[] }) {
  return (
    <ul className="ov-legend">
      {items.map((i) => (
        <li key={i.className}>
          <span className={`ov-swatch ov-sw-${i.className}`} aria-hidden="true" />
          {i.text}
        </li>
      ))}
    </ul>
  )
}

/** a chart's figures as a table, folded under its summary: what a screen reader reads (the eye has the chart) */
function FigureTable({
  caption,
  summary,
  columns,
  rows,
}: {
  caption: string
  summary: string
  columns: { label: string; numeric?: boolean }[]
  rows: { key: string; cells: ReactNode[] }[]
}) {
  const numeric = (i: number) => (columns[i].numeric ? 'ov-num' : undefined)
  return (
    <details>
      <summary>{summary}</summary>
      <div className="dash-table-wrap">
        <table>
          <caption className="dash-hint">{caption}</caption>
          <thead>
            <tr>
              {columns.map((c, i) => (
                <th key={i} scope="col" className={numeric(i)}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                {r.cells.map((c, i) => (
                  <td key={i} className={numeric(i)}>
                    {c}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  )
}

export function OverviewPage({ o, lang }: { o: Overview; lang: Lang }) {
  const t = textsOf(lang).overview
  const codes = textsOf(lang).codes
  const count = (n: number) => shownCount(n, lang)
  const day = (d: string) => shownDay(d, lang)
  const days = String(OVERVIEW_DAYS)
  const byStatus = (s: string) => o.payments.byStatus[s] ?? 0
  const busiest = most(o, (d) => d.count)
  const completed = byStatus('COMPLETED')
  const declined = byStatus('DECLINED')
  const notificationsTotal = DELIVERY_STATES.reduce((n, s) => n + o.notifications[s], 0)
  const stateWord = (s: string) => codeWord(codes.notificationState, s)
  const declinedShown = [...o.reasons.map((r) => r.count), ...(o.otherReasons > 0 ? [o.otherReasons] : [])]

  return (
    <>
      <title>{`${t.title} · Payin`}</title>
      <style>{overviewCss}</style>
      <h1>{t.title}</h1>
      <p className="dash-hint">
        {fill(t.intro, {
          days,
          first: day(o.first),
          last: day(o.last),
          zone: o.timeZone,
          now: shownTime(o.now, lang),
        })}
      </p>
      <div className="ov-grid">
        <section className="dash-card ov-card" aria-labelledby="ov-count">
          <h2 id="ov-count">{t.countTitle}</h2>
          <p className="dash-hint">{t.countHelp}</p>
          <p className="ov-big">{count(o.payments.total)}</p>
          <p className="ov-axis">
            <span>{fill(t.countMax, { max: count(busiest.value as number) })}</span>
          </p>
          <DayBars
            values={o.days.map((d) => d.count)}
            summary={
              o.payments.total === 0
                ? t.noPayments
                : fill(t.countSummary, {
                    total: count(o.payments.total),
                    days,
                    day: day(busiest.day),
                    max: count(busiest.value as number),
                  })
            }
          />
          <p className="ov-axis">
            <span>{shownDay(o.first, lang, 'short')}</span>
            <span>{shownDay(o.last, lang, 'short')}</span>
          </p>
          <FigureTable
            caption={t.countTitle}
            summary={t.asTable}
            columns={[{ label: t.day }, { label: t.count, numeric: true }]}
            rows={o.days.map((d) => ({ key: d.day, cells: [day(d.day), count(d.count)] }))}
          />
          <p className="ov-links">
            <Link prefetch={false} href={`/dashboard/payments?since=${o.first}`}>
              {t.allPayments}
            </Link>
          </p>
        </section>

        {o.currencies.map((currency) => {
          const paid = (d: Overview['days'][number]) => d.paidMinor[currency] ?? 0n
          const top = most(o, paid)
          const total = o.paidMinor[currency] ?? 0n
          const amount = (minor: bigint) => shownAmount(minor, currency, lang)
          return (
            <section key={currency} className="dash-card ov-card" aria-labelledby={`ov-paid-${currency}`}>
              <h2 id={`ov-paid-${currency}`}>{fill(t.paidTitle, { currency })}</h2>
              <p className="dash-hint">{fill(t.paidHelp, { currency })}</p>
              <p className="ov-big">{amount(total)}</p>
              <p className="ov-axis">
                <span>{fill(t.paidMax, { max: amount(top.value as bigint) })}</span>
              </p>
              <DayBars
                className="ov-bar-paid"
                // the bars' heights need only proportions: minor units as numbers are exact up to 2^53
                values={o.days.map((d) => Number(paid(d)))}
                summary={
                  total === 0n
                    ? t.noPayments
                    : fill(t.paidSummary, {
                        total: amount(total),
                        days,
                        day: day(top.day),
                        max: amount(top.value as bigint),
                      })
                }
              />
              <p className="ov-axis">
                <span>{shownDay(o.first, lang, 'short')}</span>
                <span>{shownDay(o.last, lang, 'short')}</span>
              </p>
              <FigureTable
                caption={fill(t.paidTitle, { currency })}
                summary={t.asTable}
                columns={[{ label: t.day }, { label: fill(t.paidColumn, { currency }), numeric: true }]}
                rows={o.days.map((d) => ({ key: d.day, cells: [day(d.day), amount(paid(d))] }))}
              />
              <p className="ov-links">
                <Link prefetch={false} href={`/dashboard/payments?status=COMPLETED&since=${o.first}`}>
                  {t.paidPayments}
                </Link>
              </p>
            </section>
          )
        })}

        <section className="dash-card ov-card" aria-labelledby="ov-completed">
          <h2 id="ov-completed">{t.completedTitle}</h2>
          <p className="dash-hint">{t.completedHelp}</p>
          <p className="ov-big">{o.completedShare === null ? '—' : shownShare(o.completedShare, lang)}</p>
          <PartsBar
            parts={[
              { value: completed, className: 'ov-bar-paid' },
              { value: declined, className: 'ov-bar-declined' },
            ]}
            summary={
              o.completedShare === null
                ? t.completedNone
                : fill(t.completedSummary, {
                    share: shownShare(o.completedShare, lang),
                    completed: count(completed),
                    declined: count(declined),
                  })
            }
          />
          <Legend
            items={[
              { className: 'paid', text: `${t.successful}: ${count(completed)}` },
              { className: 'declined', text: `${codeWord(codes.paymentStatus, 'DECLINED')}: ${count(declined)}` },
            ]}
          />
          <p className="dash-hint">{fill(t.waiting, { n: count(byStatus('WAITING')) })}</p>
          <FigureTable
            caption={t.completedTitle}
            summary={t.asTable}
            columns={[
              { label: textsOf(lang).dashboard.status },
              { label: t.count, numeric: true },
              { label: t.share, numeric: true },
            ]}
            rows={(['COMPLETED', 'DECLINED'] as const).map((s) => ({
              key: s,
              cells: [
                s === 'COMPLETED' ? t.successful : codeWord(codes.paymentStatus, s),
                count(byStatus(s)),
                completed + declined === 0 ? '—' : shownShare(byStatus(s) / (completed + declined), lang),
              ],
            }))}
          />
          <p className="ov-links">
            <Link prefetch={false} href={`/dashboard/payments?status=COMPLETED&since=${o.first}`}>
              {t.paidPayments}
            </Link>
            <Link prefetch={false} href={`/dashboard/payments?status=DECLINED&since=${o.first}`}>
              {t.declinedPayments}
            </Link>
          </p>
        </section>

        <section className="dash-card ov-card" aria-labelledby="ov-reasons">
          <h2 id="ov-reasons">{t.reasonsTitle}</h2>
          <p className="dash-hint">{fill(t.reasonsHelp, { top: String(TOP_REASONS) })}</p>
          {declined === 0 ? (
            <p>{t.reasonsNone}</p>
          ) : (
            <>
              <RankedBars
                values={declinedShown}
                shown={declinedShown.map(count)}
                summary={fill(t.reasonsSummary, {
                  total: count(declined),
                  reason: o.reasons[0] ? codeWord(codes.reason, o.reasons[0].reason) : t.otherReasons,
                  count: count(o.reasons[0]?.count ?? o.otherReasons),
                })}
              />
              {/* the bars' legend, visible: what each rank is, its sentence and code, as the payments' pages show */}
              <ol className="ov-reasons">
                {o.reasons.map((r) => (
                  <li key={r.reason}>
                    <Reason code={r.reason} words={codes.reason} />
                    <span className="dash-word"> — {count(r.count)}</span>
                  </li>
                ))}
                {o.otherReasons > 0 && (
                  <li>
                    {t.otherReasons}
                    <span className="dash-word"> — {count(o.otherReasons)}</span>
                  </li>
                )}
              </ol>
              <FigureTable
                caption={t.reasonsTitle}
                summary={t.asTable}
                columns={[{ label: t.rank }, { label: t.reason }, { label: t.count, numeric: true }]}
                rows={[
                  ...o.reasons.map((r, i) => ({
                    key: r.reason,
                    cells: [i + 1, <Reason key="r" code={r.reason} words={codes.reason} />, count(r.count)],
                  })),
                  ...(o.otherReasons > 0
                    ? [{ key: '-other', cells: [o.reasons.length + 1, t.otherReasons, count(o.otherReasons)] }]
                    : []),
                ]}
              />
            </>
          )}
          <p className="ov-links">
            <Link prefetch={false} href={`/dashboard/payments?status=DECLINED&since=${o.first}`}>
              {t.declinedPayments}
            </Link>
          </p>
        </section>

        <section className="dash-card ov-card" aria-labelledby="ov-delivery">
          <h2 id="ov-delivery">{t.deliveryTitle}</h2>
          <p className="dash-hint">{t.deliveryHelp}</p>
          <p className="ov-big">{count(notificationsTotal)}</p>
          <PartsBar
            parts={DELIVERY_STATES.map((s) => ({ value: o.notifications[s], className: `ov-bar-${STATE_CLASS[s]}` }))}
            summary={
              notificationsTotal === 0
                ? t.deliveryNone
                : fill(t.deliverySummary, {
                    total: count(notificationsTotal),
                    delivered: count(o.notifications.DELIVERED),
                    pending: count(o.notifications.PENDING),
                    failed: count(o.notifications.FAILED),
                  })
            }
          />
          <Legend
            items={DELIVERY_STATES.map((s) => ({
              className: STATE_CLASS[s],
              text: `${stateWord(s)}: ${count(o.notifications[s])}`,
            }))}
          />
          <FigureTable
            caption={t.deliveryTitle}
            summary={t.asTable}
            columns={[{ label: t.state }, { label: t.notifications, numeric: true }]}
            rows={DELIVERY_STATES.map((s) => ({ key: s, cells: [stateWord(s), count(o.notifications[s])] }))}
          />
          <p className="ov-links">
            {DELIVERY_STATES.map((s) => (
              <Link key={s} prefetch={false} href={`/dashboard/notifications?state=${s}&since=${o.first}`}>
                {fill(t.showState, { state: stateWord(s) })}
              </Link>
            ))}
          </p>
        </section>
      </div>
    </>
  )
}
