export default function Home() {
  return (
    <main style={{ maxWidth: 640, margin: '3rem auto', padding: '0 1rem' }}>
      <h1>Payin sandbox</h1>
      <p>
        A merchant payment acceptance service with a built-in sandbox acquirer. The JSON API lives under{' '}
        <code>/api</code>; see the README for the endpoints and test cards.
      </p>
    </main>
  )
}
