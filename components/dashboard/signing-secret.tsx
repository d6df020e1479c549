'use client'
// "Rotate secret": a confirmation (optionally ending the current secret at once, after a leak), then
// POST /dashboard/actions/settings/rotate-secret. The new secret is in that answer alone: it lives in this
// component's state, so it is gone on reload or on leaving the page; the page itself never carries it.
import { useRouter } from 'next/navigation'
import { useEffect, useRef, useState } from 'react'
import type { SettingsMessages } from '@/lib/i18n/en/settings'
import { fill } from '@/lib/i18n/fill'
import { localTime } from '@/lib/i18n/locale-format'
import { ShownOnce } from './shown-once'
import { settingsAction } from './settings-request'

type Rotated = { secret: string; previousUntil: string | null; graceHours: number }

export function SigningSecret({ t, locale, graceHours }: { t: SettingsMessages; locale: string; graceHours: number }) {
  const router = useRouter()
  const [confirming, setConfirming] = useState(false)
  const [immediately, setImmediately] = useState(false)
  const [busy, setBusy] = useState(false)
  const [rotated, setRotated] = useState<Rotated | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const opener = useRef<HTMLButtonElement>(null)
  const wasConfirming = useRef(false)

  // focus goes back to "Rotate secret" when the confirmation closes without a result to read
  useEffect(() => {
    if (wasConfirming.current && !confirming && !rotated) opener.current?.focus()
    wasConfirming.current = confirming
  }, [confirming, rotated])

  const send = async () => {
    setBusy(true)
    setProblem(null)
    const r = await settingsAction<Rotated>('rotate-secret', { immediately })
    setBusy(false)
    setConfirming(false)
    setImmediately(false)
    if (r.ok && r.body.secret) {
      setRotated(r.body as Rotated)
      router.refresh()
    } else setProblem(fill(t.failed, { description: r.body.description ?? `HTTP ${r.status}` }))
  }

  return (
    <div>
      <button
        ref={opener}
        type="button"
        onClick={() => (setRotated(null), setProblem(null), setConfirming(true))}
        disabled={busy || confirming}
      >
        {t.rotate}
      </button>
      {confirming && (
        <div role="alertdialog" aria-label={t.rotate} aria-describedby="rotate-question" className="dash-confirm">
          <p id="rotate-question">{fill(t.confirmRotate, { hours: String(graceHours) })}</p>
          <label className="set-check">
            <input type="checkbox" checked={immediately} onChange={(e) => setImmediately(e.target.checked)} />
            <span>{t.endNow}</span>
          </label>
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
      {rotated && (
        <ShownOnce
          id="new-secret"
          title={t.newSecret}
          value={rotated.secret}
          t={t}
          onDone={() => {
            setRotated(null)
            opener.current?.focus()
          }}
        >
          <p className="set-note">{t.copySecretNow}</p>
          <p className="set-note">
            {rotated.previousUntil
              ? fill(t.graceNote, { hours: String(rotated.graceHours), at: localTime(rotated.previousUntil, locale) })
              : t.endedNote}
          </p>
        </ShownOnce>
      )}
      {problem && (
        <p role="alert" className="dash-error">
          {problem}
        </p>
      )}
    </div>
  )
}
