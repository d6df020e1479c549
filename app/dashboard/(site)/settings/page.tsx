// The site's settings: where notifications go, the signing secret (not shown here: the site command prints it, and a
// rotation's answer shows the new one once), the API tokens, what holds do at the end of their period, the origins
// that may frame its payment pages, its payment page themes, the site's
// sandbox clock (absent with SANDBOX_CLOCK=off) and the recent changes to them (the audit log).
// The page reads only; every change is a request under /dashboard/actions/settings/ (the clock's:
// /dashboard/actions/sandbox/clock/advance).
import { ApiTokens } from '@/components/dashboard/api-tokens'
import { ClockAdvanceForm } from '@/components/dashboard/clock-advance-form'
import { FrameOriginsForm } from '@/components/dashboard/frame-origins-form'
import { HoldsForm } from '@/components/dashboard/holds-form'
import { NotifyUrlForm } from '@/components/dashboard/notify-url-form'
import { settingsCss } from '@/components/dashboard/settings-styles'
import { SigningSecret } from '@/components/dashboard/signing-secret'
import { ThemesCard } from '@/components/dashboard/themes-card'
import { Words } from '@/components/dashboard/words'
import { PublicKey } from '@/components/dashboard/public-key'
import { settings } from '@/lib/config'
import { CLOCK_ACTION } from '@/lib/dashboard/dashboard-clock'
import { HOLDS_ACTION, settingsOverview } from '@/lib/dashboard/dashboard-settings'
import { themesOverview } from '@/lib/dashboard/dashboard-themes'
import { shownOutcome } from '@/lib/i18n/code-words'
import type { SettingsMessages } from '@/lib/i18n/en/settings'
import { fill } from '@/lib/i18n/fill'
import { shownDuration, shownTime } from '@/lib/i18n/format'
import { localeOf, textsOf, type Lang } from '@/lib/i18n/languages'
import { MAX_CLOCK_OFFSET_MS } from '@/lib/sandbox/clock-advance'
import { currentLanguage, requireSession } from '../../dashboard-request'

export default async function SettingsPage() {
  const session = await requireSession()
  const lang = await currentLanguage()
  const t = textsOf(lang).settings
  const [d, themes] = await Promise.all([settingsOverview(session), themesOverview(session)])
  const time = (at: Date) => shownTime(at, lang)
  const holdAction = d.holds.reversal ? 'reverse' : 'capture'
  return (
    <>
      <title>{`${t.title} · Payin`}</title>
      <style>{settingsCss}</style>
      <h1>{t.title}</h1>

      <section className="dash-card" aria-labelledby="notify-url-title">
        <h2 id="notify-url-title">{t.urlTitle}</h2>
        <NotifyUrlForm initial={d.notifyUrl ?? ''} t={t} />
      </section>

      <section className="dash-card" aria-labelledby="secret-title">
        <h2 id="secret-title">{t.secretTitle}</h2>
        <p>
          <Words text={t.secretHelp} />
        </p>
        <p className="dash-scroll">
          <code>{`npm run site -- secret ${session.siteId}`}</code>
        </p>
        <p>
          <Words text={t.secretRotateHelp} />
        </p>
        <p>
          {d.secret.rotatedAt
            ? fill(t.rotatedAt, { at: time(d.secret.rotatedAt) })
            : d.secret.version === 0
              ? t.neverRotated
              : null}
          {d.secret.previousUntil ? ` ${fill(t.previousSigns, { at: time(d.secret.previousUntil) })}` : ''}
        </p>
        <SigningSecret t={t} locale={localeOf(lang)} graceHours={d.secret.graceHours} />
      </section>

      <section className="dash-card" aria-labelledby="public-key-title">
        <h2 id="public-key-title">{t.publicKeyTitle}</h2>
        <p>
          <Words text={t.publicKeyHelp} />
        </p>
        <PublicKey t={t} publicKey={d.publicKey} origin={settings().publicBaseUrl} />
      </section>

      <section className="dash-card" aria-labelledby="tokens-title">
        <h2 id="tokens-title">{t.tokensTitle}</h2>
        <p>
          <Words text={t.tokensHelp} />
        </p>
        <ApiTokens
          t={t}
          tokens={d.tokens.map((k) => ({
            id: k.id,
            hint: k.hint,
            created: time(k.createdAt),
            createdIso: k.createdAt.toISOString(),
            revoked: k.revokedAt ? time(k.revokedAt) : null,
            thisSession: k.thisSession,
          }))}
        />
      </section>

      <section className="dash-card" aria-labelledby="holds-title">
        <h2 id="holds-title">{t.holdsTitle}</h2>
        <p className="set-note">
          <Words text={t.holdsHelp} />
        </p>
        <p className="set-holds-now">{shownHolds(t, holdAction, { hours: String(d.holds.hours) }, t.holdsNow)}</p>
        <HoldsForm initial={{ action: holdAction, hours: d.holds.hours }} t={t} />
      </section>

      <section className="dash-card" aria-labelledby="frames-title">
        <h2 id="frames-title">{t.framesTitle}</h2>
        <FrameOriginsForm initial={d.frameOrigins} t={t} />
      </section>

      <section className="dash-card" aria-labelledby="themes-title">
        <h2 id="themes-title">{textsOf(lang).themes.title}</h2>
        <p className="set-note">
          <Words text={textsOf(lang).themes.help} />
        </p>
        <ThemesCard themes={themes} t={textsOf(lang).themes} s={t} />
      </section>

      {d.clock && (
        <section className="dash-card" aria-labelledby="clock-title">
          <h2 id="clock-title">{t.clockTitle}</h2>
          <p className="set-note">
            <Words text={t.clockHelp} />
          </p>
          <p className="set-clock-now">
            {`${t.clockNow}: `}
            <time dateTime={d.clock.now.toISOString()}>{time(d.clock.now)}</time>{' '}
            <span>{`(${shownAhead(t, lang, d.clock.offsetMs)})`}</span>
          </p>
          <ClockAdvanceForm
            t={t}
            locale={localeOf(lang)}
            durationWords={textsOf(lang).duration}
            maxDays={MAX_CLOCK_OFFSET_MS / 86_400_000}
          />
        </section>
      )}

      <section className="dash-card" aria-labelledby="settings-audit-title">
        <h2 id="settings-audit-title">{t.auditTitle}</h2>
        {d.audit.length === 0 ? (
          <p>{t.none}</p>
        ) : (
          <div className="dash-table-wrap">
            <table className="set-table">
              <thead>
                <tr>
                  <th scope="col">{t.when}</th>
                  <th scope="col">{t.who}</th>
                  <th scope="col">{t.what}</th>
                  <th scope="col">{t.subject}</th>
                  <th scope="col">{t.outcome}</th>
                </tr>
              </thead>
              <tbody>
                {d.audit.map((a, i) => (
                  <tr key={i}>
                    <td data-label={t.when}>
                      <time dateTime={a.at.toISOString()}>{time(a.at)}</time>
                    </td>
                    <td data-label={t.who} className="set-mono">{`${a.actor}…`}</td>
                    <td data-label={t.what}>{Object.hasOwn(t.action, a.action) ? t.action[a.action] : a.action}</td>
                    <td data-label={t.subject} className="set-any">
                      {a.action === 'create-token' || a.action === 'revoke-token'
                        ? `${a.subject}…`
                        : Object.hasOwn(t.subjects, a.subject)
                          ? t.subjects[a.subject]
                          : a.subject}
                    </td>
                    <td data-label={t.outcome}>
                      {a.action === CLOCK_ACTION
                        ? shownAdvance(t, lang, a.detail)
                        : a.action === HOLDS_ACTION
                          ? shownHolds(t, a.outcome, a.detail, t.holdsOutcome)
                          : shownOutcome(t, a.outcome)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  )
}

/** how far the site's clock runs ahead: "real time", "2 days 3 hours ahead" */
const shownAhead = (t: SettingsMessages, lang: Lang, offsetMs: number) =>
  offsetMs > 0 ? fill(t.ahead, { by: shownDuration(offsetMs, lang) }) : t.realTime

/** an advance in the audit log: by how much (or to when), and how far ahead the clock was then */
function shownAdvance(t: SettingsMessages, lang: Lang, detail: Record<string, string>): string {
  const ahead = shownAhead(t, lang, Number(detail.offsetSeconds ?? 0) * 1000)
  if (detail.seconds) return fill(t.clockBy, { by: shownDuration(Number(detail.seconds) * 1000, lang), ahead })
  return fill(t.clockTo, { at: detail.to ? shownTime(new Date(detail.to), lang) : '?', ahead })
}

/** the hold setting in words: its action (`capture` or `reverse`) and its period in hours */
const shownHolds = (
  t: SettingsMessages,
  action: string,
  detail: Record<string, string>,
  words: Record<string, string>,
) => (Object.hasOwn(words, action) ? fill(words[action], { hours: detail.hours ?? '?' }) : action)
