'use client'
// Ends the session on the server (POST /dashboard/actions/sign-out), then shows the sign-in page.
export function SignOutButton({ label }: { label: string }) {
  return (
    <button
      type="button"
      className="dash-link-button"
      onClick={async () => {
        await fetch('/dashboard/actions/sign-out', { method: 'POST' }).catch(() => null)
        // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- full load: new session
        window.location.assign('/dashboard')
      }}
    >
      {label}
    </button>
  )
}
