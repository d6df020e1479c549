'use client'
// The origins that may frame the site's payment pages and hear their events (issue 31), one per line (none: no one).
// The service's rule decides (POST /dashboard/actions/settings/frame-origins): exact origins, https or loopback http;
// its refusal, a 400 naming `origins`, is shown on the field in its own words.
import { useRouter } from 'next/navigation'
import { useState, type FormEvent } from 'react'
import type { SettingsMessages } from '@/lib/i18n/en/settings'
import { fill } from '@/lib/i18n/fill'
import { SaveFooter } from './save-footer'
import { settingsAction } from './settings-request'

export function FrameOriginsForm({ initial, t }: { initial: string[]; t: SettingsMessages }) {
  const router = useRouter()
  const [text, setText] = useState(initial.join('\n'))
  const [submitting, setSubmitting] = useState(false)
  const [saved, setSaved] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault()
    setSaved(false)
    setError(null)
    setProblem(null)
    setSubmitting(true)
    const origins = text.split(/\s+/).filter(Boolean)
    const r = await settingsAction<{ origins: string[] }>('frame-origins', { origins })
    setSubmitting(false)
    if (r.ok) {
      setText((r.body.origins ?? origins).join('\n'))
      setSaved(true)
      router.refresh()
      return
    }
    const cause = r.body.cause?.origins?.[0]
    if (r.status === 400 && cause) setError(cause)
    else setProblem(fill(t.failed, { description: r.body.description ?? `HTTP ${r.status}` }))
  }

  return (
    <form className="set-frames" noValidate onSubmit={onSubmit} aria-busy={submitting}>
      <label htmlFor="frame-origins">{t.framesLabel}</label>
      <textarea
        id="frame-origins"
        rows={3}
        spellCheck={false}
        autoComplete="off"
        placeholder="https://shop.example"
        value={text}
        aria-invalid={!!error}
        aria-describedby={error ? 'frame-origins-help frame-origins-error' : 'frame-origins-help'}
        onChange={(e) => {
          setText(e.target.value)
          setSaved(false)
        }}
      />
      <p id="frame-origins-help" className="set-note">
        {t.framesHelp}
      </p>
      {error && (
        <p id="frame-origins-error" className="dash-error">
          {fill(t.framesRefused, { reason: error })}
        </p>
      )}
      <SaveFooter t={t} submitting={submitting} saved={saved} problem={problem} />
    </form>
  )
}
