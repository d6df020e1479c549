'use client'
// A secret or a token shown once, right after it was made: a read-only text box (selected when it gets
// focus, wrapping at any character so that a narrow screen does not scroll sideways), "Copy", and "Done",
// which forgets it. Nothing here is stored: a reload shows nothing, nor does a page restored by Back.
import { useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react'
import type { SettingsMessages } from '@/lib/i18n/en/settings'

export function ShownOnce({
  id,
  title,
  value,
  t,
  onDone,
  children,
}: {
  id: string
  title: string
  value: string
  t: SettingsMessages
  onDone: () => void
  children?: ReactNode
}) {
  const box = useRef<HTMLTextAreaElement>(null)
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    box.current?.focus()
  }, [value])
  // leaving the page forgets it too: a page restored by Back (the browser's page cache) shows nothing
  const forgetOnLeave = useEffectEvent((e: PageTransitionEvent) => (e.type === 'pagehide' || e.persisted) && onDone())
  useEffect(() => {
    const forget = (e: PageTransitionEvent) => forgetOnLeave(e)
    window.addEventListener('pagehide', forget)
    window.addEventListener('pageshow', forget)
    return () => {
      window.removeEventListener('pagehide', forget)
      window.removeEventListener('pageshow', forget)
    }
  }, [])
  return (
    <section className="set-once" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      <textarea
        ref={box}
        id={id}
        readOnly
        rows={2}
        value={value}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-notes`}
        spellCheck={false}
        autoComplete="off"
        onFocus={(e) => e.currentTarget.select()}
      />
      <div id={`${id}-notes`}>{children}</div>
      <div className="dash-inline">
        <button
          type="button"
          className="dash-secondary"
          onClick={() =>
            navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => box.current?.select(),
            )
          }
        >
          {copied ? t.copied : t.copy}
        </button>
        <button type="button" className="dash-secondary" onClick={onDone}>
          {t.hide}
        </button>
      </div>
    </section>
  )
}
