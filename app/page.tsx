// Each page names itself (no title in the root layout: a page's own <title> would come second and lose).
export const metadata = { title: 'Payin sandbox' }

export default function Home() {
  return (
    <main style={{ maxWidth: 640, margin: '3rem auto', padding: '0 1rem' }}>
      <h1>Payin sandbox</h1>
      <p>
        A merchant payment acceptance service with a built-in sandbox acquirer. The JSON API lives under{' '}
        <code>/api</code>: its reference is at <a href="/docs">/docs</a> (the OpenAPI document:{' '}
        <a href="/api/openapi.json">/api/openapi.json</a>); see the README for the test cards.
      </p>
    </main>
  )
}
