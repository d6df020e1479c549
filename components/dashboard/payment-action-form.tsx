'use client'
// "Capture" or "Refund" on a payment's page: the amount, a confirmation, then the same service the API
// runs (POST /dashboard/actions/payments/<id>/capture|refund). Its answer (or refusal) is shown here in the page's
// words; the page's figures are then read again. The key made when the form is shown makes a repeated send act once.
// The amount is prefilled in the page's locale (`1234,50` in Russian) and taken with either decimal sign.
import { zodResolver } from '@hookform/resolvers/zod'
import { useRouter } from 'next/navigation'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { z } from './form-schema'
import { codeWord, serviceMessage, serviceMessages } from '@/lib/i18n/code-words'
import type { CodeWords } from '@/lib/i18n/en/codes'
import type { DashboardMessages } from '@/lib/i18n/en/dashboard'
import { fill } from '@/lib/i18n/fill'
import { amountFromField, isAmountField } from '@/lib/i18n/locale-format'
import { dashboardAction } from './dashboard-action'
import { newKey } from './new-key'

const schema = z.object({
  amount: z
    .string()
    .trim()
    // above zero too: the service refuses 0.00 only after the confirmation
    .refine(isAmountField),
})
type Values = z.infer<typeof schema>

export function PaymentActionForm({
  kind,
  paymentId,
  currency,
  defaultAmount,
  locale,
  t,
  codes,
  available = true,
  unavailable = '',
}: {
  kind: 'capture' | 'refund'
  paymentId: string
  currency: string
  /** in the page's locale */
  defaultAmount: string
  locale: string
  t: DashboardMessages
  codes: CodeWords
  /**
   * whether the action can work now; when not, the section says `unavailable` instead of offering it. The form stays
   * mounted either way, so the answer to the action that used up the payment stays on screen after the page reloads
   */
  available?: boolean
  unavailable?: string
}) {
  const router = useRouter()
  const [key, setKey] = useState(() => newKey())
  const [pending, setPending] = useState<string | null>(null)
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const { register, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { amount: defaultAmount },
  })
  const label = kind === 'capture' ? t.capture : t.refund
  const id = `${kind}-amount`

  const send = async () => {
    if (!pending) return
    setBusy(true)
    const res = await dashboardAction<{ status: string; reason?: string }>(
      `payments/${encodeURIComponent(paymentId)}/${kind}`,
      { amount: pending, key },
    )
    const body = res.body
    setBusy(false)
    setPending(null)
    const statuses = kind === 'capture' ? codes.captureStatus : codes.refundStatus
    if (res.ok) {
      const reason = body.reason ? `${codeWord(codes.reason, body.reason).replace(/\.$/, '')} (${body.reason})` : ''
      setResult(
        body.reason
          ? { ok: false, text: fill(t.actionDeclined, { action: label, reason }) }
          : { ok: true, text: fill(t.actionDone, { action: label, status: codeWord(statuses, body.status ?? '') }) },
      )
      setKey(newKey())
    } else if (res.status === 0 || res.status >= 500) {
      // no answer, or the service failed: the action may have happened. The key stays, so trying again
      // replays it (acts at most once) instead of acting a second time
      setResult({ ok: false, text: t.noAnswer })
    } else {
      const cause = body.cause ? serviceMessages(codes, Object.values(body.cause).flat()) : ''
      const description = body.description ? serviceMessage(codes, body.description) : `HTTP ${res.status}`
      setResult({ ok: false, text: [description, cause].filter(Boolean).join(': ') })
      // a refusal consumed nothing, but a new key keeps the next try from replaying this one
      setKey(newKey())
    }
    router.refresh()
  }

  const answer = result && (
    <p role={result.ok ? 'status' : 'alert'} className={result.ok ? 'dash-ok' : 'dash-error'}>
      {result.text}
    </p>
  )
  if (!available)
    return (
      <div>
        <p>{unavailable}</p>
        {answer}
      </div>
    )

  return (
    <form
      className="dash-inline"
      noValidate
      onSubmit={handleSubmit((v) => {
        setResult(null)
        setPending(amountFromField(v.amount))
      })}
    >
      <label htmlFor={id}>
        {t.amount}
        <input
          id={id}
          inputMode="decimal"
          // in the server's HTML too, so the amount shows before the script runs
          defaultValue={defaultAmount}
          aria-invalid={!!formState.errors.amount}
          aria-describedby={formState.errors.amount ? `${id}-error` : undefined}
          {...register('amount')}
        />
      </label>
      <button type="submit" disabled={busy || pending !== null}>
        {label}
      </button>
      {formState.errors.amount && (
        <p className="dash-error" id={`${id}-error`}>
          {t.amountFormat}
        </p>
      )}
      {pending && (
        <div role="alertdialog" aria-label={label} className="dash-confirm">
          <p>
            {fill(kind === 'capture' ? t.confirmCapture : t.confirmRefund, {
              amount: shownPending(pending, currency, locale),
            })}
          </p>
          <div className="dash-inline">
            <button type="button" onClick={send} disabled={busy} autoFocus>
              {busy ? t.working : t.confirm}
            </button>
            <button type="button" className="dash-secondary" onClick={() => setPending(null)} disabled={busy}>
              {t.cancel}
            </button>
          </div>
        </div>
      )}
      {answer}
    </form>
  )
}

/** the amount to confirm, as the page shows amounts (`1 234,50 ₽`); in the API's notation, two decimals at most */
const shownPending = (value: string, currency: string, locale: string) =>
  new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(Number(value))
