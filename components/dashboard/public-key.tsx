'use client'
// The site's public key of links without the API, with a link for 100.00 RUB to copy, and "Rotate public key": a
// confirmation, then POST /dashboard/actions/settings/public-key; the page is read again and shows the new key (the
// key is public: the page always shows it).
import { useRouter } from 'next/navigation'
import { useState } from 'react'
import type { SettingsMessages } from '@/lib/i18n/en/settings'
import { fill } from '@/lib/i18n/fill'
import { settingsAction } from './settings-request'

export function PublicKey({ t, publicKey, origin }: { t: SettingsMessages; publicKey: string; origin: string }) {
  const router = useRouter()
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const send = async () => {
    setBusy(true)
    setProblem(null)
    const r = await settingsAction<{ publicKey: string }>('public-key')
    setBusy(false)
    setConfirming(false)
    if (r.ok) router.refresh()
    else setProblem(fill(t.failed, { description: r.body.description ?? `HTTP ${r.status}` }))
  }
  return (
    <div>
      <p className="dash-scroll">
        <code data-testid="public-key">{publicKey}</code>
      </p>
      <p>{t.publicKeyExample}</p>
      <p className="dash-scroll">
        <code data-testid="public-key-link">{`${origin}/create?publicKey=${publicKey}&amount=100.00`}</code>
      </p>
      <button type="button" onClick={() => (setProblem(null), setConfirming(true))} disabled={busy || confirming}>
        {t.rotatePublicKey}
      </button>
      {confirming && (
        <div
          role="alertdialog"
          aria-label={t.rotatePublicKey}
          aria-describedby="public-key-question"
          className="dash-confirm"
        >
          <p id="public-key-question">{t.confirmRotatePublicKey}</p>
          <div className="dash-inline">
            <button type="button" onClick={send} disabled={busy} autoFocus>
              {busy ? t.working : t.confirm}
            </button>
            <button type="button" className="dash-secondary" onClick={() => setConfirming(false)} disabled={busy}>
              {t.cancel}
            </button>
          </div>
        </div>
      )}
      {problem && (
        <p role="alert" className="dash-error">
          {problem}
        </p>
      )}
    </div>
  )
}
