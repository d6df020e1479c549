// The page's own screens: paid, expired, not found.
export function ResultScreen({
  tone,
  title,
  text,
  children,
}: {
  tone: 'good' | 'bad'
  title: string
  text: string
  children?: React.ReactNode
}) {
  return (
    <div className={`pay-result ${tone}`}>
      <div className="pay-icon" aria-hidden="true">
        {tone === 'good' ? '✓' : '!'}
      </div>
      <h1>{title}</h1>
      <p>{text}</p>
      {children}
    </div>
  )
}
