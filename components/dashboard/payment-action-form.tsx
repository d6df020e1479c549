'use client'
// "Capture" or "Refund" on a payment's page: the amount, a confirmation, then the same service the API
// runs (POST /dashboard/actions/payments/<id>/capture|refund). Its answer (or refusal) is shown here; the page's
// figures are then read again. The key made when the form is shown makes a repeated send act once.
import { zodResolver } from '@hookform/resolvers/zod'
import { useRouter } from 'next/navigation'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { z } from './form-schema'
import type { DashboardMessages } from '@/lib/i18n/en/dashboard'
import { fill } from '@/lib/i18n/fill'
import { dashboardAction } from './dashboard-action'
import { newKey } from './new-key'

const schema = z.object({
  amount: z
    .string()
    .trim()
    .regex(/^\d{1,10}([.,]\d{1,2})?$/),
})
type Values = z.infer<typeof schema>

export function PaymentActionForm({
  kind,
  paymentId,
  currency,
  defaultAmount,
  t,
}: {
  kind: 'capture' | 'refund'
  paymentId: string
  currency: string
  defaultAmount: string
  t: DashboardMessages
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
    if (res.ok) {
      setResult(
        body.reason
          ? { ok: false, text: fill(t.actionDeclined, { action: label, reason: body.reason }) }
          : { ok: true, text: fill(t.actionDone, { action: label, status: body.status ?? '' }) },
      )
      setKey(newKey())
    } else if (res.status === 0 || res.status >= 500) {
      // no answer, or the service failed: the action may have happened. The key stays, so trying again
      // replays it (acts at most once) instead of acting a second time
      setResult({ ok: false, text: t.noAnswer })
    } else {
      const cause = body.cause ? Object.values(body.cause).flat().join('; ') : ''
      setResult({ ok: false, text: [body.description ?? `HTTP ${res.status}`, cause].filter(Boolean).join(': ') })
      // a refusal consumed nothing, but a new key keeps the next try from replaying this one
      setKey(newKey())
    }
    router.refresh()
  }

  return (
    <form
      className="dash-inline"
      noValidate
      onSubmit={handleSubmit((v) => {
        setResult(null)
        setPending(v.amount.replace(',', '.'))
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
          <p>{fill(kind === 'capture' ? t.confirmCapture : t.confirmRefund, { amount: `${pending} ${currency}` })}</p>
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
      {result && (
        <p role={result.ok ? 'status' : 'alert'} className={result.ok ? 'dash-ok' : 'dash-error'}>
          {result.text}
        </p>
      )}
    </form>
  )
}
