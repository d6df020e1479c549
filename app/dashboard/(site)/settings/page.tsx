// The site's settings: where notifications go, the signing secret (never shown here: a rotation's
// answer shows the new one once), the API tokens, and the recent changes to them (the audit log).
// The page reads only; every change is a request under /dashboard/actions/settings/.
import { ApiTokens } from '@/components/dashboard/api-tokens'
import { NotifyUrlForm } from '@/components/dashboard/notify-url-form'
import { settingsCss } from '@/components/dashboard/settings-styles'
import { SigningSecret } from '@/components/dashboard/signing-secret'
import { shownTime } from '@/lib/dashboard/dashboard-format'
import { fill } from '@/lib/dashboard/dashboard-messages'
import { settingsOverview } from '@/lib/dashboard/dashboard-settings'
import { settingsMessages, shownOutcome } from '@/lib/dashboard/settings-messages'
import { currentLanguage, requireSession } from '../../dashboard-request'

export default async function SettingsPage() {
  const session = await requireSession()
  const lang = await currentLanguage()
  const t = settingsMessages(lang)
  const d = await settingsOverview(session)
  const time = (at: Date) => shownTime(at, lang)
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
        <p>{t.secretHelp}</p>
        <p>
          {d.secret.rotatedAt ? fill(t.rotatedAt, { at: time(d.secret.rotatedAt) }) : d.secret.version === 0 ? t.neverRotated : null}
          {d.secret.previousUntil ? ` ${fill(t.previousSigns, { at: time(d.secret.previousUntil) })}` : ''}
        </p>
        <SigningSecret t={t} lang={lang} graceHours={d.secret.graceHours} />
      </section>

      <section className="dash-card" aria-labelledby="tokens-title">
        <h2 id="tokens-title">{t.tokensTitle}</h2>
        <p>{t.tokensHelp}</p>
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
                    <td data-label={t.subject} className="set-any">{a.action === 'create-token' || a.action === 'revoke-token' ? `${a.subject}…` : (Object.hasOwn(t.subjects, a.subject) ? t.subjects[a.subject] : a.subject)}</td>
                    <td data-label={t.outcome}>{shownOutcome(t, a.outcome)}</td>
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
