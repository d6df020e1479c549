'use client'
// "Resend" on a notification's page: a confirmation, then the API's own re-send
// (POST /dashboard/actions/notifications/<id>/resend). Its answer — queued again, PENDING, and when the next
// attempt is due — or its refusal (a delivery under way, not found) is shown here; the page's figures are
// then read again. Keyboard: Escape or Cancel closes the confirmation, focus goes back to "Resend".
import { useRouter } from 'next/navigation'
import { useEffect, useRef, useState } from 'react'
import { codeWord, serviceMessage } from '@/lib/i18n/code-words'
import type { CodeWords } from '@/lib/i18n/en/codes'
import type { NotificationsMessages } from '@/lib/i18n/en/notifications'
import { fill } from '@/lib/i18n/fill'
import { timeInZone } from '@/lib/i18n/locale-format'
import { dashboardAction } from './dashboard-action'

type Result = { ok: boolean; text: string }

export function NotificationResendForm({
  notificationId,
  url,
  t,
  codes,
  locale,
  timeZone,
}: {
  notificationId: string
  url: string
  t: NotificationsMessages
  /** the states' words and the service's messages in the page's words */
  codes: CodeWords
  locale: string
  timeZone: string
}) {
  const router = useRouter()
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<Result | null>(null)
  const resendButton = useRef<HTMLButtonElement>(null)
  const shownTime = (iso: string) => timeInZone(new Date(iso), locale, timeZone)

  const close = () => setConfirming(false)
  // once the confirmation is closed (and "Resend" enabled again), the keyboard is back on "Resend"
  const wasConfirming = useRef(false)
  useEffect(() => {
    if (wasConfirming.current && !confirming) resendButton.current?.focus()
    wasConfirming.current = confirming
  }, [confirming])

  const send = async () => {
    setBusy(true)
    const res = await dashboardAction<{ state: string; nextAttemptDateTime: string }>(
      `notifications/${encodeURIComponent(notificationId)}/resend`,
    )
    const body = res.body
    setBusy(false)
    close()
    if (res.ok)
      setResult({
        ok: true,
        text: fill(t.resent, {
          state: codeWord(codes.notificationState, body.state ?? ''),
          time: shownTime(body.nextAttemptDateTime ?? ''),
        }),
      })
    else if (res.status === 409) setResult({ ok: false, text: t.underWay })
    else if (res.status === 404) setResult({ ok: false, text: t.notFound })
    else
      setResult({
        ok: false,
        text: fill(t.failed, {
          detail:
            res.status && body.description ? serviceMessage(codes, body.description) : `HTTP ${res.status || '—'}`,
        }),
      })
    router.refresh()
  }

  return (
    <div>
      <p className="notif-muted">{t.resendHelp}</p>
      <button
        type="button"
        ref={resendButton}
        disabled={busy || confirming}
        onClick={() => {
          setResult(null)
          setConfirming(true)
        }}
      >
        {t.resend}
      </button>
      {confirming && (
        <div
          role="alertdialog"
          aria-label={t.resend}
          className="dash-confirm"
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !busy) close()
          }}
        >
          <p className="notif-wrap">{fill(t.confirmResend, { url })}</p>
          <div className="dash-inline">
            <button type="button" onClick={send} disabled={busy} autoFocus>
              {busy ? t.working : t.confirm}
            </button>
            <button type="button" className="dash-secondary" onClick={close} disabled={busy}>
              {t.cancel}
            </button>
          </div>
        </div>
      )}
      {/* both live regions are there from the start, so that what appears in them is announced */}
      <p role="status" className="dash-ok">
        {result?.ok ? result.text : ''}
      </p>
      <p role="alert" className="dash-error">
        {result && !result.ok ? result.text : ''}
      </p>
    </div>
  )
}
