'use client'
// The site's API tokens by their first characters: when made, active or revoked, and which one this
// session was opened with. "Revoke" (after a confirmation) ends the token and every dashboard session
// opened with it: revoking this session's own token signs out at once. The site's last active token
// cannot be revoked (the service refuses it too). "Create token" shows the new token once.
import { useRouter } from 'next/navigation'
import { useEffect, useRef, useState } from 'react'
import type { SettingsMessages } from '@/lib/i18n/en/settings'
import { fill } from '@/lib/i18n/fill'
import { ShownOnce } from './shown-once'
import { settingsAction } from './settings-request'

export interface ShownToken {
  id: string
  hint: string
  created: string
  createdIso: string
  revoked: string | null
  thisSession: boolean
}

export function ApiTokens({ tokens, t }: { tokens: ShownToken[]; t: SettingsMessages }) {
  const router = useRouter()
  const [confirming, setConfirming] = useState<ShownToken | null>(null)
  const [busy, setBusy] = useState(false)
  const [created, setCreated] = useState<{ token: string; hint: string } | null>(null)
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null)
  const active = tokens.filter((k) => !k.revoked).length
  // the "Revoke" that opened the confirmation gets the focus back when it closes
  const opener = useRef<HTMLButtonElement | null>(null)
  useEffect(() => {
    if (confirming === null && opener.current) {
      const button = opener.current
      opener.current = null
      if (button.isConnected && !button.disabled) button.focus()
    }
  }, [confirming])

  const revoke = async () => {
    if (!confirming) return
    setBusy(true)
    const r = await settingsAction<{ revoked: string; signedOut: boolean }>(
      `tokens/${encodeURIComponent(confirming.id)}/revoke`,
    )
    if (r.ok && r.body.signedOut) {
      // this session ended with its token: the sign-in page says so
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- full load: new session
      window.location.assign('/dashboard')
      return
    }
    setBusy(false)
    setConfirming(null)
    setMessage(
      r.ok
        ? { ok: true, text: fill(t.revokedDone, { hint: r.body.revoked ?? confirming.hint }) }
        : {
            ok: false,
            text:
              r.status === 409 && active <= 1
                ? t.lastActive
                : fill(t.failed, { description: r.body.description ?? `HTTP ${r.status}` }),
          },
    )
    router.refresh()
  }

  const create = async () => {
    setBusy(true)
    setMessage(null)
    setCreated(null)
    const r = await settingsAction<{ token: string; hint: string }>('tokens')
    setBusy(false)
    if (r.ok && r.body.token) {
      setCreated({ token: r.body.token, hint: r.body.hint ?? r.body.token.slice(0, 9) })
      router.refresh()
    } else setMessage({ ok: false, text: fill(t.failed, { description: r.body.description ?? `HTTP ${r.status}` }) })
  }

  return (
    <div>
      <div className="dash-table-wrap">
        <table className="set-table">
          <thead>
            <tr>
              <th scope="col">{t.token}</th>
              <th scope="col">{t.created}</th>
              <th scope="col">{t.state}</th>
              <th scope="col">{t.actions}</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((k) => (
              <tr key={k.id}>
                <td data-label={t.token}>
                  <span className="set-mono">{`${k.hint}…`}</span>
                  {k.thisSession && <span className="set-badge">{t.thisSession}</span>}
                </td>
                <td data-label={t.created}>
                  <time dateTime={k.createdIso}>{k.created}</time>
                </td>
                <td data-label={t.state}>{k.revoked ? fill(t.revokedOn, { at: k.revoked }) : t.active}</td>
                <td data-label={t.actions}>
                  {!k.revoked && (
                    <button
                      type="button"
                      className="dash-secondary"
                      disabled={busy || confirming !== null || active <= 1}
                      aria-describedby={active <= 1 ? 'last-token-note' : undefined}
                      onClick={(e) => {
                        opener.current = e.currentTarget
                        setMessage(null)
                        setConfirming(k)
                      }}
                    >
                      {t.revoke}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {active <= 1 && (
        <p id="last-token-note" className="set-note">
          {t.lastActive}
        </p>
      )}
      {confirming && (
        <div role="alertdialog" aria-label={t.revoke} aria-describedby="revoke-question" className="dash-confirm">
          <p id="revoke-question">
            {fill(confirming.thisSession ? t.confirmRevokeOwn : t.confirmRevoke, { hint: confirming.hint })}
          </p>
          <div className="dash-inline">
            <button type="button" onClick={revoke} disabled={busy} autoFocus>
              {busy ? t.working : t.confirm}
            </button>
            <button type="button" className="dash-secondary" onClick={() => setConfirming(null)} disabled={busy}>
              {t.cancel}
            </button>
          </div>
        </div>
      )}
      <div className="dash-inline set-actions">
        <button type="button" onClick={create} disabled={busy}>
          {t.createToken}
        </button>
      </div>
      {created && (
        <ShownOnce id="new-token" title={t.newToken} value={created.token} t={t} onDone={() => setCreated(null)}>
          <p className="set-note">{t.copyTokenNow}</p>
        </ShownOnce>
      )}
      {message && (
        <p role={message.ok ? 'status' : 'alert'} className={message.ok ? 'dash-ok' : 'dash-error'}>
          {message.text}
        </p>
      )}
    </div>
  )
}
