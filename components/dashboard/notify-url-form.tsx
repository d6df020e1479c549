'use client'
// The site's notification URL (empty: none). The form checks what it can itself (an absolute http(s)
// URL of at most 2048 characters); the service's rule decides (POST /dashboard/actions/settings/notify-url),
// and its refusal, a 400 naming the field `url` in the contract's shape, is shown on the field.
import { zodResolver } from '@hookform/resolvers/zod'
import { useRouter } from 'next/navigation'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { z } from './form-schema'
import { urlReason } from '@/lib/i18n/code-words'
import type { SettingsMessages } from '@/lib/i18n/en/settings'
import { fill } from '@/lib/i18n/fill'
import { SaveFooter } from './save-footer'
import { settingsAction } from './settings-request'

// the words are the service's own field messages (so that one translation serves both)
const isHttpUrl = (s: string) => {
  try {
    return /^https?:$/.test(new URL(s).protocol)
  } catch {
    return false
  }
}
const schema = z.object({
  url: z
    .string()
    .trim()
    .max(2048, 'must be at most 2048 characters')
    .refine((s) => s === '' || isHttpUrl(s), 'must be an absolute http(s) URL'),
})
type Values = z.infer<typeof schema>

export function NotifyUrlForm({ initial, t }: { initial: string; t: SettingsMessages }) {
  const router = useRouter()
  const [saved, setSaved] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  // no default value for the form: the field starts from its own (the page's `initial`), which the form then reads,
  // so that what was typed before the script took the page over is kept rather than reset to `initial`
  const { register, handleSubmit, formState, setError, reset } = useForm<Values>({ resolver: zodResolver(schema) })
  const error = formState.errors.url?.message

  const onSubmit = async (v: Values) => {
    setSaved(false)
    setProblem(null)
    const r = await settingsAction<{ url: string | null }>('notify-url', { url: v.url })
    if (r.ok) {
      reset({ url: r.body.url ?? '' })
      setSaved(true)
      router.refresh()
      return
    }
    const cause = r.body.cause?.url?.[0]
    if (r.status === 400 && cause) setError('url', { message: cause }, { shouldFocus: true })
    else setProblem(fill(t.failed, { description: r.body.description ?? `HTTP ${r.status}` }))
  }

  return (
    <form className="set-url" noValidate onSubmit={handleSubmit(onSubmit)} aria-busy={formState.isSubmitting}>
      <label htmlFor="notify-url">{t.urlLabel}</label>
      <input
        id="notify-url"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://shop.example/payin-hook"
        defaultValue={initial}
        aria-invalid={!!error}
        aria-describedby={error ? 'notify-url-help notify-url-error' : 'notify-url-help'}
        {...register('url', { onChange: () => setSaved(false) })}
      />
      <p id="notify-url-help" className="set-note">
        {t.urlHelp}
      </p>
      {error && (
        <p id="notify-url-error" className="dash-error">
          {fill(t.urlRefused, { reason: urlReason(t, error) })}
        </p>
      )}
      <SaveFooter t={t} submitting={formState.isSubmitting} saved={saved} problem={problem} />
    </form>
  )
}
