'use client'
// What the site's holds do at the end of their period (captured in full or reversed), and the period in whole hours,
// 1 to 120. The form checks the period itself; the service decides (POST /dashboard/actions/settings/holds), and its
// refusal, a 400 naming the field, is shown on it.
import { zodResolver } from '@hookform/resolvers/zod'
import { useRouter } from 'next/navigation'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { z } from './form-schema'
import type { SettingsMessages } from '@/lib/i18n/en/settings'
import { fill } from '@/lib/i18n/fill'
import { SaveFooter } from './save-footer'
import { settingsAction } from './settings-request'

const MIN_HOURS = 1
const MAX_HOURS = 120

const schema = z.object({
  action: z.enum(['capture', 'reverse']),
  hours: z
    .string()
    .trim()
    .refine((s) => /^\d+$/.test(s) && Number(s) >= MIN_HOURS && Number(s) <= MAX_HOURS, 'range'),
})
type Values = z.infer<typeof schema>

export function HoldsForm({
  initial,
  t,
}: {
  initial: { action: 'capture' | 'reverse'; hours: number }
  t: SettingsMessages
}) {
  const router = useRouter()
  const [saved, setSaved] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const { register, handleSubmit, formState, setError, reset } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { action: initial.action, hours: String(initial.hours) },
  })
  const error = formState.errors.hours ? t.holdsHoursRange : null

  const onSubmit = async (v: Values) => {
    setSaved(false)
    setProblem(null)
    const r = await settingsAction<{ action: 'capture' | 'reverse'; hours: number }>('holds', {
      action: v.action,
      hours: Number(v.hours),
    })
    if (r.ok) {
      reset({ action: r.body.action, hours: String(r.body.hours) })
      setSaved(true)
      router.refresh()
      return
    }
    if (r.status === 400 && r.body.cause?.hours) setError('hours', { message: 'range' }, { shouldFocus: true })
    else setProblem(fill(t.failed, { description: r.body.description ?? `HTTP ${r.status}` }))
  }
  const changed = { onChange: () => setSaved(false) }

  return (
    <form className="set-holds" noValidate onSubmit={handleSubmit(onSubmit)} aria-busy={formState.isSubmitting}>
      <fieldset>
        <legend>{t.holdsAction}</legend>
        <label>
          <input type="radio" value="capture" {...register('action', changed)} /> {t.holdsCapture}
        </label>{' '}
        <label>
          <input type="radio" value="reverse" {...register('action', changed)} /> {t.holdsReverse}
        </label>
      </fieldset>
      <label htmlFor="hold-hours">{t.holdsHours}</label>
      <input
        id="hold-hours"
        type="number"
        inputMode="numeric"
        min={MIN_HOURS}
        max={MAX_HOURS}
        step={1}
        aria-invalid={!!error}
        aria-describedby={error ? 'hold-hours-error' : undefined}
        {...register('hours', changed)}
      />
      {error && (
        <p id="hold-hours-error" className="dash-error">
          {error}
        </p>
      )}
      <SaveFooter t={t} submitting={formState.isSubmitting} saved={saved} problem={problem} />
    </form>
  )
}
