'use client'
// "Advance": the site's sandbox clock moved forward by a whole number of minutes, hours or days, sent as
// the API's own advance body (`seconds`) to POST /dashboard/actions/sandbox/clock/advance. The form checks
// what it can (a whole number, 1 or more, within the limit for one move); the service decides, and its
// refusal (a 400 naming `seconds`) is shown on the amount. Done: the page is read again, showing the
// clock's new time.
import { zodResolver } from '@hookform/resolvers/zod'
import { useRouter } from 'next/navigation'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { z } from './form-schema'
import { clockReason } from '@/lib/i18n/code-words'
import type { SettingsMessages } from '@/lib/i18n/en/settings'
import { fill } from '@/lib/i18n/fill'
import { durationInWords, type DurationWords } from '@/lib/i18n/locale-format'
import { dashboardAction } from './dashboard-action'

/** the units the form offers, in seconds */
const CLOCK_UNITS = { minutes: 60, hours: 3600, days: 86_400 } as const
type ClockUnit = keyof typeof CLOCK_UNITS
const UNITS = Object.keys(CLOCK_UNITS) as ClockUnit[]

type Values = { amount: string; unit: ClockUnit }

/** `locale` and `durationWords`: the page's language's, for the advance's words (`Moved forward by 2 hours.`) */
export function ClockAdvanceForm({
  t,
  locale,
  durationWords,
  maxDays,
}: {
  t: SettingsMessages
  locale: string
  durationWords: DurationWords
  maxDays: number
}) {
  const router = useRouter()
  const [done, setDone] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const schema = z
    .object({ amount: z.string().trim().regex(/^\d+$/, t.wholeNumber), unit: z.enum(['minutes', 'hours', 'days']) })
    .refine((v) => Number(v.amount) >= 1, { message: t.wholeNumber, path: ['amount'] })
    .refine((v) => Number(v.amount) * CLOCK_UNITS[v.unit] <= maxDays * 86_400, {
      message: fill(t.tooFar, { days: String(maxDays) }),
      path: ['amount'],
    })
  const { register, handleSubmit, formState, setError } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { amount: '1', unit: 'hours' },
  })
  const error = formState.errors.amount?.message

  const onSubmit = async (v: Values) => {
    setDone(null)
    setProblem(null)
    const seconds = Number(v.amount) * CLOCK_UNITS[v.unit]
    const r = await dashboardAction<{ now: string; offsetSeconds: number }>('sandbox/clock/advance', { seconds })
    if (r.ok) {
      setDone(fill(t.advancedBy, { by: durationInWords(seconds * 1000, durationWords, locale) }))
      router.refresh()
      return
    }
    const cause = r.body.cause?.seconds?.[0]
    if (r.status === 400 && cause)
      setError(
        'amount',
        { type: 'server', message: fill(t.clockRefused, { reason: clockReason(t, cause) }) },
        { shouldFocus: true },
      )
    else setProblem(fill(t.failed, { description: r.body.description ?? `HTTP ${r.status}` }))
  }

  return (
    <form className="set-clock" noValidate onSubmit={handleSubmit(onSubmit)} aria-busy={formState.isSubmitting}>
      <div className="dash-inline">
        <label htmlFor="clock-amount">
          {t.advanceBy}
          <input
            id="clock-amount"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            aria-invalid={!!error}
            aria-describedby={error ? 'clock-amount-error' : undefined}
            {...register('amount', { onChange: () => setDone(null) })}
          />
        </label>
        <label htmlFor="clock-unit">
          {t.unit}
          <select id="clock-unit" {...register('unit', { onChange: () => setDone(null) })}>
            {UNITS.map((u) => (
              <option key={u} value={u}>
                {t.units[u]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? t.advancing : t.advance}
        </button>
      </div>
      {error && (
        <p id="clock-amount-error" className="dash-error">
          {error}
        </p>
      )}
      {done && (
        <p role="status" className="dash-ok">
          {done}
        </p>
      )}
      {problem && (
        <p role="alert" className="dash-error">
          {problem}
        </p>
      )}
    </form>
  )
}
