// The dashboard forms' requests: POST to /dashboard/actions/… with a JSON body (the browser adds the
// page's Origin). An ended session (401) takes the browser to the sign-in page: that answer never
// settles, so the form stays busy until the page is left.
export interface ActionAnswer<T> {
  ok: boolean
  /** 0: no answer (the network) */
  status: number
  body: Partial<T> & { description?: string; cause?: Record<string, string[]> }
}

/** `path`: below /dashboard/actions/ */
export async function dashboardAction<T>(path: string, body?: unknown): Promise<ActionAnswer<T>> {
  const res = await fetch(`/dashboard/actions/${path}`, {
    method: 'POST',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
  }).catch(() => null)
  if (!res)
    return { ok: false, status: 0, body: { description: 'no answer from the service' } as ActionAnswer<T>['body'] }
  if (res.status === 401) {
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- full load: new session
    window.location.assign('/dashboard')
    return new Promise<never>(() => {})
  }
  const parsed = await res.json().catch(() => ({}))
  return { ok: res.ok, status: res.status, body: parsed }
}
