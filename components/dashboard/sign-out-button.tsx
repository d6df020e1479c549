'use client'
// Ends the session on the server (POST /dashboard/actions/sign-out), then shows the sign-in page.
export function SignOutButton({ label }: { label: string }) {
  return (
    <button
      type="button"
      className="dash-link-button"
      onClick={async () => {
        await fetch('/dashboard/actions/sign-out', { method: 'POST' }).catch(() => null)
        window.location.assign('/dashboard')
      }}
    >
      {label}
    </button>
  )
}
