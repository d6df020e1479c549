'use client'
// "Copy link" on a bill's page: the payUrl to the clipboard, then "Copied" (or how to copy it by hand)
// in a status line a screen reader announces. Enabled once the page's script runs.
import { useEffect, useState } from 'react'

export function CopyLinkButton({
  url,
  label,
  copied,
  failed,
}: {
  url: string
  label: string
  copied: string
  failed: string
}) {
  const [ready, setReady] = useState(false)
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  // eslint-disable-next-line react-hooks/set-state-in-effect -- deliberately a render after hydration
  useEffect(() => setReady(true), [])
  return (
    <div className="dash-inline">
      <button
        type="button"
        disabled={!ready}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(url)
            setState('copied')
          } catch {
            setState('failed')
          }
        }}
      >
        {label}
      </button>
      <p role="status" className={state === 'failed' ? 'dash-error' : 'dash-ok'}>
        {state === 'copied' ? copied : state === 'failed' ? failed : ''}
      </p>
    </div>
  )
}
