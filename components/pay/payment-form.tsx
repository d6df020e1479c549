// The payer's form: the page's methods offered on the bill as tabs (lib/pay-form/methods: the card, the
// mobile balance) with the chosen one's fields, an amount for open bills, then the code step, the 3-D Secure
// hand-off or the wait for the operator. Checked in the browser with the schema the server checks again; card
// fields are cleared once sent. Rendered on the server by the page (pages/pay/[invoiceUid].tsx), then taken
// over in the browser by the page's own small script (payment-form-island.tsx, bundled by
// scripts/pay-form-bundle.ts).
import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { codeFormSchema, payFormSchema } from '@/lib/pay-form/form-schema'
import { offeredIn, payFormMethodOf, payFormMethods } from '@/lib/pay-form/methods'
import { Field } from '@/lib/pay-form/methods/field'
import type { PayFormInput } from '@/lib/pay-form/methods/pay-method'
import { errorText } from '@/lib/i18n/code-words'
import { BankAppWait } from './bank-app-wait'
import { OrderFieldSet, orderFieldName } from './order-fields'
import type { PayFormMessages } from '@/lib/i18n/en/pay-form'
import type { BankAppStep, NextStep } from '@/lib/pay-form/form-service'
import type { PaymentFormData } from '@/lib/pay-form/pay-page'
import { postEmbedEvent } from '@/lib/pay-form/embed-events'

/** where the page puts the form, and the data it was rendered with (for the browser script to take over) */
export const PAY_FORM_ROOT = 'pay-form'
export const PAY_FORM_DATA = 'pay-form-data'
export const PAY_FORM_NOTICE = 'pay-form-notice'

type Stage =
  | { kind: 'form' }
  | { kind: 'otp'; attemptId: string; text: string }
  | { kind: 'wait'; attemptId: string; bankApp?: BankAppStep }
  | { kind: 'leaving' }

/** the fields a server's answer may name, in the order the first one named takes the focus */
const FORM_FIELDS = [...payFormMethods.flatMap((m) => m.fields), 'amount', 'method']

export function PaymentForm(data: PaymentFormData) {
  const { t, invoiceUid, currency, amountLabel, declinedReason, clockOffsetMs } = data
  // the methods the bill offers: tabs when more than one; the first is chosen until the payer picks another (the page
  // shows no form on a bill that offers none)
  const offered = offeredIn(data)
  const first = offered.find((m) => m.method === data.firstMethod) ?? offered[0] ?? payFormMethods[0]
  const schema = useMemo(
    () => payFormSchema({ openAmount: amountLabel === null, clockOffsetMs }),
    [amountLabel, clockOffsetMs],
  )
  const form = useForm<PayFormInput, unknown, PayFormInput>({
    resolver: zodResolver(schema, undefined, { raw: true }),
    // no defaults for what the payer can have typed or chosen before the page's script took the form over
    // (it runs at the first interaction, see pages/pay/[invoiceUid].tsx): read from the inputs, not wiped.
    // Without the method choice the method is the one offered.
    defaultValues: offered.length > 1 ? {} : { method: first.method },
    mode: 'onTouched',
  })
  const { register, handleSubmit, watch, setValue, getValues, setError, formState } = form
  const [stage, setStage] = useState<Stage>({ kind: 'form' })
  const [declined, setDeclined] = useState<string | undefined>(declinedReason ?? undefined)
  const [status, setStatus] = useState('')
  const [generalError, setGeneralError] = useState('')
  // the form runs in the browser now: a submission the page held back until then (pages/pay/[invoiceUid].tsx) is made
  const formRef = useRef<HTMLFormElement | null>(null)
  useEffect(() => {
    const host = formRef.current?.parentElement
    if (!host) return
    host.dataset.live = '1'
    host.removeAttribute('aria-busy')
    const notice = document.getElementById(PAY_FORM_NOTICE)
    if (notice) notice.textContent = ''
    // what the payer chose or typed before (react-hook-form read the typed fields from the inputs as it
    // registered them; the radios' registration reset the method, which the page's script noted first),
    // shown as the form shows what is typed from now on: the method's fields, the number grouped with its brand
    const chosen = host.dataset.method
    if (chosen && payFormMethodOf(chosen)) setValue('method', chosen)
    const typed = getValues()
    for (const m of payFormMethods)
      for (const [name, value] of Object.entries(m.shownAsTyped?.(typed) ?? {})) setValue(name, value)
    if (host.dataset.pending) {
      delete host.dataset.pending
      formRef.current?.requestSubmit()
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the script takes the form over
  }, [])
  const method = payFormMethodOf(watch('method') ?? '') ?? first
  const base = `/pay/${invoiceUid}`
  // the payUrl's options (lang, successUrl, paymentMethod) ride along on every request of the page
  const query = data.query ?? ''

  /** what the server said to do next */
  function follow(step: NextStep) {
    // the embedder hears the outcome here, unless the bill's page it goes to says it (a paid bill's page does): the
    // page's own address is compared by its path, the payUrl's options (a query) aside
    const elsewhere = step.kind === 'redirect' && step.url.split(/[?#]/)[0] !== base
    if (step.kind === 'declined' || (step.kind === 'redirect' && step.outcome === 'FAILED' && elsewhere))
      postEmbedEvent(data.embedding, 'PAYMENT_FAILED')
    else if (step.kind === 'redirect' && step.outcome === 'PAID' && elsewhere)
      postEmbedEvent(data.embedding, 'PAYMENT_SUCCEEDED')
    if (step.kind === 'redirect') {
      setStage({ kind: 'leaving' })
      window.location.assign(step.url)
    } else if (step.kind === 'threeDS') {
      setStage({ kind: 'leaving' })
      setStatus(t.redirecting3ds)
      const f = document.createElement('form')
      f.method = 'POST'
      f.action = step.acsUrl
      for (const [name, value] of [
        ['PaReq', step.pareq],
        ['MD', step.md],
        ['TermUrl', step.termUrl],
      ]) {
        const input = document.createElement('input')
        input.type = 'hidden'
        input.name = name
        input.value = value
        f.appendChild(input)
      }
      document.body.appendChild(f)
      f.submit()
    } else if (step.kind === 'otp') {
      setStage({ kind: 'otp', attemptId: step.attemptId, text: step.text })
      setStatus(step.text)
    } else if (step.kind === 'wait') {
      setStage({ kind: 'wait', attemptId: step.attemptId, bankApp: step.bankApp })
      setStatus(step.bankApp ? t.sbpWaiting : t[method.waiting ?? 'waitingOperator'])
    } else {
      setStage({ kind: 'form' })
      setDeclined(step.reason)
      setStatus(`${t.declined} ${t.reasons[step.reason] ?? t.reasons.other}`)
    }
  }

  async function post(
    path: string,
    body: unknown,
  ): Promise<{ ok: true; step: NextStep } | { ok: false; cause?: Record<string, string[]> }> {
    try {
      const res = await fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(body),
      })
      const json = await res.json().catch(() => ({}))
      return res.ok ? { ok: true, step: json as NextStep } : { ok: false, cause: json.cause }
    } catch {
      return { ok: false }
    }
  }

  async function onSubmit(values: PayFormInput) {
    setGeneralError('')
    setDeclined(undefined)
    setStatus(data.checkCard ? t.checkProcessing : t.processing)
    const m = payFormMethodOf(values.method) ?? first
    const sent = {
      method: m.method,
      ...Object.fromEntries(m.fields.map((f) => [f, values[f]])),
      amount: values.amount,
      // a link's bill's fields the payer may change (components/pay/order-fields.tsx)
      ...(data.orderFields && { customFields: editedFields(data.orderFields.list, getValues()) }),
    }
    // card data leaves the page with this request and is not kept in it
    for (const name of payFormMethods.flatMap((pm) => pm.notKept ?? [])) setValue(name, '')
    postEmbedEvent(data.embedding, 'PAYMENT_ATTEMPT')
    const r = await post(`${base}/attempts${query}`, sent)
    if (r.ok) return follow(r.step)
    setStatus('')
    const cause = r.cause ?? {}
    const known = FORM_FIELDS.filter((f) => cause[f])
    for (const f of known) setError(f, { message: cause[f][0] }, { shouldFocus: f === known[0] })
    // the bill paused after failed attempts, or too many attempts from this client: when to try again
    const limit = cause.bill?.[0] ?? cause.client?.[0]
    if (limit) setGeneralError(errorText(t, limit))
    else if (!known.length) setGeneralError(t.somethingWrong)
    else setStatus(t.errorSummary)
  }

  // the operator's answer (or the payer's in their bank app): asked for until it is there
  useEffect(() => {
    if (stage.kind !== 'wait') return
    let stopped = false
    const timer = setInterval(async () => {
      const res = await fetch(`${base}/attempts/${encodeURIComponent(stage.attemptId)}${query}`, {
        headers: { Accept: 'application/json' },
      }).catch(() => null)
      if (stopped || !res?.ok) return
      const step = (await res.json()) as NextStep
      if (step.kind !== 'wait') {
        stopped = true
        clearInterval(timer)
        follow(step)
      }
    }, 1000)
    return () => {
      stopped = true
      clearInterval(timer)
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stage])

  const fieldError = (name: string) => errorText(t, formState.errors[name]?.message)
  const describedBy = (name: string, hint = false) =>
    [hint ? `${name}-hint` : '', formState.errors[name as keyof PayFormInput] ? `${name}-error` : '']
      .filter(Boolean)
      .join(' ') || undefined

  if (stage.kind === 'otp')
    return (
      <CodeStep
        t={t}
        text={stage.text}
        onCode={(code) => post(`${base}/attempts/${encodeURIComponent(stage.attemptId)}/code${query}`, { code })}
        onStep={follow}
      />
    )

  const busy = formState.isSubmitting || stage.kind !== 'form'
  return (
    // method post: even sent by the browser itself (no script at all), the card never goes into an address
    <form
      ref={formRef}
      method="post"
      onSubmit={handleSubmit(onSubmit, () => setStatus(t.errorSummary))}
      noValidate
      aria-busy={busy}
    >
      {declined && (
        <div className="pay-alert" role="alert" data-testid="declined">
          <strong>{t.declined}</strong> {t.reasons[declined] ?? t.reasons.other}{' '}
          {declined !== 'BILL_ALREADY_PAID' && declined !== 'BILL_EXPIRED' ? t.tryAgain : ''}
        </div>
      )}
      {generalError && (
        <div className="pay-alert" role="alert" data-testid="general-error">
          {generalError}
        </div>
      )}
      {data.orderFields && <OrderFieldSet fields={data.orderFields} register={register} />}
      {amountLabel === null && (
        <Field id="amount" label={`${t.amount}, ${currency}`} error={fieldError('amount')}>
          <input
            id="amount"
            inputMode="decimal"
            autoComplete="off"
            aria-invalid={!!formState.errors.amount}
            aria-describedby={describedBy('amount')}
            {...register('amount')}
          />
        </Field>
      )}
      {offered.length > 1 && (
        <fieldset>
          <legend>{t.method}</legend>
          <div className="pay-methods">
            {offered.map((m) => (
              <label key={m.method}>
                <input type="radio" value={m.method} defaultChecked={m === first} {...register('method')} />{' '}
                {t[m.label]}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <method.Fields
        t={t}
        register={register}
        error={fieldError}
        describedBy={describedBy}
        invalid={(n) => !!formState.errors[n]}
        // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler: watch() re-renders, as meant
        watched={(n) => watch(n) ?? ''}
      />
      {stage.kind === 'wait' && stage.bankApp ? (
        <BankAppWait t={t} step={stage.bankApp} />
      ) : (
        <button className="pay-submit" type="submit" disabled={busy}>
          {data.checkCard ? t.verifyCard : amountLabel ? t.payAmount.replace('{amount}', amountLabel) : t.pay}
        </button>
      )}
      <p className="pay-status" role="status" aria-live="polite" data-testid="status">
        {stage.kind === 'wait' ? (stage.bankApp ? t.sbpWaiting : t[method.waiting ?? 'waitingOperator']) : status}
      </p>
    </form>
  )
}

/** the values of the shown fields the payer may change, by the bill's field names */
function editedFields(list: { name: string; readonly: boolean }[], values: Record<string, unknown>) {
  return Object.fromEntries(
    list.flatMap((f, i) => (f.readonly ? [] : [[f.name, String(values[orderFieldName(i)] ?? '')]])),
  )
}

function CodeStep({
  t,
  text,
  onCode,
  onStep,
}: {
  t: PayFormMessages
  text: string
  onCode: (code: string) => Promise<{ ok: true; step: NextStep } | { ok: false; cause?: Record<string, string[]> }>
  onStep: (s: NextStep) => void
}) {
  const { register, handleSubmit, setError, formState } = useForm<{ code: string }>({
    resolver: zodResolver(codeFormSchema),
    defaultValues: { code: '' },
  })
  const input = useRef<HTMLInputElement | null>(null)
  useEffect(() => input.current?.focus(), [])
  const code = register('code')
  const error = errorText(t, formState.errors.code?.message)
  return (
    <form
      method="post"
      noValidate
      onSubmit={handleSubmit(async ({ code }) => {
        const r = await onCode(code)
        if (r.ok) return onStep(r.step)
        setError('code', { message: r.cause?.code?.[0] ?? 'code.invalid' }, { shouldFocus: true })
      })}
    >
      <p>{text}</p>
      <Field id="code" label={t.code} error={error}>
        <input
          id="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
          aria-invalid={!!formState.errors.code}
          aria-describedby={formState.errors.code ? 'code-error' : undefined}
          {...code}
          ref={(el) => {
            code.ref(el)
            input.current = el
          }}
        />
      </Field>
      <button className="pay-submit" type="submit" disabled={formState.isSubmitting}>
        {t.confirm}
      </button>
      <p className="pay-status" role="status" aria-live="polite">
        {error}
      </p>
    </form>
  )
}
