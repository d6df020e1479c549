'use client'
// "New bill": amount (empty: the payer enters it), currency, comment, deadline, return URLs. Sent to
// POST /dashboard/actions/bills/<bill id> in the API's own bill request shape; the service checks it as
// it checks an API request (limits, the 45-day window, URL rules) and its refusals are shown next to
// their fields. The bill id is made when the form is shown and kept until a bill is made: a form sent
// twice (a double click, a retry after a lost answer) creates one bill.
// The deadline is typed in the browser's local time and sent as an ISO date-time with the browser's
// offset for that moment (lib/dashboard/local-date-time.ts): the server never guesses a time zone.
// The service counts it from the site's sandbox clock (lib/sandbox/site-clock.ts), so the default, a day
// ahead, is a day after the site's time: the browser's clock plus the site's offset (`clockOffsetMs`).
import { zodResolver } from '@hookform/resolvers/zod'
import { useRouter } from 'next/navigation'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { z } from './form-schema'
import { localInput, withLocalOffset } from '@/lib/dashboard/local-date-time'
import { serviceMessage, serviceMessages } from '@/lib/i18n/code-words'
import type { BillsMessages } from '@/lib/i18n/en/bills'
import type { CodeWords } from '@/lib/i18n/en/codes'
import { amountFromField, isAmountField } from '@/lib/i18n/locale-format'
import { fill } from '@/lib/i18n/fill'
import { newKey } from './new-key'
import { dashboardAction } from './dashboard-action'

const schema = z.object({
  amount: z.string(),
  currency: z.string().min(1),
  comment: z.string(),
  expires: z.string().min(1),
  successUrl: z.string(),
  failedUrl: z.string(),
  sale: z.boolean(),
})
type Values = z.infer<typeof schema>
type Field = Exclude<keyof Values, 'sale'>

/** the fields of the API's bill request (as its errors' `cause` names them) and the form's field each belongs to */
const FIELD_OF_CAUSE: Record<string, Field> = {
  amount: 'amount',
  'amount.value': 'amount',
  'amount.currency': 'currency',
  comment: 'comment',
  expirationDateTime: 'expires',
  successUrl: 'successUrl',
  failedUrl: 'failedUrl',
}

export function NewBillForm({
  t,
  codes,
  currencies,
  defaultCurrency,
  clockOffsetMs,
  clockNote,
}: {
  t: BillsMessages
  /** the service's messages in the page's words */
  codes: CodeWords
  currencies: readonly string[]
  defaultCurrency: string
  /** how far the site's sandbox clock runs ahead of real time */
  clockOffsetMs: number
  /** said under the deadline when the site's clock is not on real time */
  clockNote?: string
}) {
  const router = useRouter()
  const [billId, setBillId] = useState(() => newKey())
  const [ready, setReady] = useState(false)
  const [zone, setZone] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const { register, handleSubmit, formState, setValue, setError } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: {
      amount: '',
      currency: defaultCurrency,
      comment: '',
      expires: '',
      successUrl: '',
      failedUrl: '',
      sale: true,
    },
  })
  // what only the browser knows: its time zone, hence the default deadline (a day from the site's now)
  useEffect(() => {
    setValue('expires', localInput(new Date(Date.now() + clockOffsetMs + 24 * 3600_000)))
    // eslint-disable-next-line react-hooks/set-state-in-effect -- browser-only facts: a render after hydration
    setZone(Intl.DateTimeFormat().resolvedOptions().timeZone ?? '')
    setReady(true)
  }, [setValue, clockOffsetMs])

  const onSubmit = async (v: Values) => {
    setProblem(null)
    const expirationDateTime = withLocalOffset(v.expires)
    if (!expirationDateTime) {
      setError('expires', { type: 'format', message: t.required })
      return
    }
    // at most two decimals, above zero: the API would round 12,345 down to 12.34 without a word
    if (v.amount.trim() && !isAmountField(v.amount)) {
      setError('amount', { type: 'server', message: t.amountFormat }, { shouldFocus: true })
      return
    }
    const amount = amountFromField(v.amount)
    const text = (s: string) => (s.trim() ? s.trim() : undefined)
    const body = {
      amount: { ...(amount ? { value: amount } : {}), currency: v.currency },
      expirationDateTime,
      comment: text(v.comment),
      flags: v.sale ? ['SALE'] : [],
      successUrl: text(v.successUrl),
      failedUrl: text(v.failedUrl),
    }
    const res = await dashboardAction<{ billId: string }>(`bills/${encodeURIComponent(billId)}`, body)
    // no answer: the same bill id is sent again on the next try, so a bill made meanwhile is not made twice
    if (res.status === 0) return setProblem(t.noAnswer)
    const answer = res.body
    if (res.ok) {
      router.push(`/dashboard/bills/${encodeURIComponent(answer.billId ?? billId)}`)
      return
    }
    const cause = answer.cause ?? {}
    const unplaced: string[] = []
    for (const [path, messages] of Object.entries(cause)) {
      const field = FIELD_OF_CAUSE[path]
      const text = serviceMessages(codes, messages)
      if (field) setError(field, { type: 'server', message: text }, { shouldFocus: true })
      else unplaced.push(`${path}: ${text}`)
    }
    if (unplaced.length || !Object.keys(cause).length)
      setProblem(
        fill(t.notCreated, {
          message: [
            answer.description ? serviceMessage(codes, answer.description) : `HTTP ${res.status}`,
            ...unplaced,
          ].join('; '),
        }),
      )
    // a refusal made nothing: the bill id stays. A 409 means a bill exists under it with another request
    // (an earlier send whose answer was lost, then changed): the next try is a new bill, under a new id.
    if (res.status === 409) setBillId(newKey())
  }

  const { errors, isSubmitting } = formState
  const described = (field: Field, hint?: boolean) =>
    [hint ? `bill-${field}-hint` : '', errors[field] ? `bill-${field}-error` : ''].filter(Boolean).join(' ') ||
    undefined
  const fieldError = (field: Field) =>
    errors[field] && (
      <p id={`bill-${field}-error`} className="dash-error">
        {errors[field]?.type === 'server' ? errors[field]?.message : t.required}
      </p>
    )

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="dash-form bill-form" aria-busy={isSubmitting}>
      <label htmlFor="bill-amount">{t.amount}</label>
      <p id="bill-amount-hint" className="bill-hint">
        {t.amountHint}
      </p>
      <input
        id="bill-amount"
        inputMode="decimal"
        autoComplete="off"
        aria-invalid={!!errors.amount}
        aria-describedby={described('amount', true)}
        {...register('amount')}
      />
      {fieldError('amount')}

      <label htmlFor="bill-currency">{t.currency}</label>
      <select
        id="bill-currency"
        aria-invalid={!!errors.currency}
        aria-describedby={described('currency')}
        {...register('currency')}
      >
        {currencies.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
      {fieldError('currency')}

      <label htmlFor="bill-comment">{t.comment}</label>
      <p id="bill-comment-hint" className="bill-hint">
        {t.commentHint}
      </p>
      <input
        id="bill-comment"
        autoComplete="off"
        aria-invalid={!!errors.comment}
        aria-describedby={described('comment', true)}
        {...register('comment')}
      />
      {fieldError('comment')}

      <label htmlFor="bill-expires">{t.expires}</label>
      <p id="bill-expires-hint" className="bill-hint">
        {fill(t.expiresHint, { zone: zone ? ` (${zone})` : '' })}
        {clockNote ? ` ${clockNote}` : ''}
      </p>
      <input
        id="bill-expires"
        type="datetime-local"
        aria-invalid={!!errors.expires}
        aria-describedby={described('expires', true)}
        {...register('expires')}
      />
      {fieldError('expires')}

      <label htmlFor="bill-successUrl">{t.successUrl}</label>
      <p id="bill-successUrl-hint" className="bill-hint">
        {t.urlHint}
      </p>
      <input
        id="bill-successUrl"
        type="url"
        inputMode="url"
        autoComplete="url"
        aria-invalid={!!errors.successUrl}
        aria-describedby={described('successUrl', true)}
        {...register('successUrl')}
      />
      {fieldError('successUrl')}

      <label htmlFor="bill-failedUrl">{t.failedUrl}</label>
      <input
        id="bill-failedUrl"
        type="url"
        inputMode="url"
        autoComplete="url"
        aria-invalid={!!errors.failedUrl}
        aria-describedby={described('failedUrl')}
        {...register('failedUrl')}
      />
      {fieldError('failedUrl')}

      <label className="bill-check" htmlFor="bill-sale">
        <input id="bill-sale" type="checkbox" aria-describedby="bill-sale-hint" {...register('sale')} />
        {t.oneStep}
      </label>
      <p id="bill-sale-hint" className="bill-hint">
        {t.oneStepHint}
      </p>

      <p role="alert" className="dash-error">
        {problem}
      </p>
      <button type="submit" disabled={!ready || isSubmitting}>
        {isSubmitting ? t.creating : t.create}
      </button>
    </form>
  )
}
