// The overview's charts, drawn on the server as SVG (no script, no library): each an image (role="img") named by a
// summary of what it shows, the same summary as its <title>. The geometry is in percentages of the width and in
// pixels of the height (no viewBox), so the charts stretch to any width while their numbers keep their size; the
// words around them (axes, legends) are the page's HTML, and every chart has a table of its figures beside it.
import { useId } from 'react'

/** a chart's frame: an image named by `summary` */
function Chart({ summary, height, children }: { summary: string; height: number; children: React.ReactNode }) {
  const id = useId()
  return (
    <svg role="img" aria-label={summary} width="100%" height={height} className="ov-chart">
      {/* an id keeps it apart from the page's own <title> (the document's, in the head) */}
      <title id={`${id}-title`}>{summary}</title>
      {children}
    </svg>
  )
}

const BAR_AREA = 140

/** a bar per day, oldest first (each day's figure is in the chart's table) */
export function DayBars({
  values,
  summary,
  className = 'ov-bar',
}: {
  values: number[]
  summary: string
  className?: string
}) {
  const max = Math.max(0, ...values)
  const step = 100 / values.length
  return (
    <Chart summary={summary} height={BAR_AREA + 1}>
      {values.map((v, i) => {
        // a day with anything shows at least a sliver
        const h = max === 0 || v === 0 ? 0 : Math.max(2, Math.round((v / max) * BAR_AREA))
        return (
          <rect
            key={i}
            className={className}
            x={`${(i * step + step * 0.15).toFixed(3)}%`}
            width={`${(step * 0.7).toFixed(3)}%`}
            y={BAR_AREA - h}
            height={h}
          />
        )
      })}
      <line className="ov-axis-line" x1="0" x2="100%" y1={BAR_AREA + 0.5} y2={BAR_AREA + 0.5} />
    </Chart>
  )
}

/** one bar split into parts, each as wide as its share of the whole */
export function PartsBar({ parts, summary }: { parts: { value: number; className: string }[]; summary: string }) {
  const total = parts.reduce((n, p) => n + p.value, 0)
  let x = 0
  return (
    <Chart summary={summary} height={32}>
      {total === 0 ? (
        <rect className="ov-empty" x="0" width="100%" y="0" height="32" />
      ) : (
        parts.map((p, i) => {
          const w = (p.value / total) * 100
          const rect = (
            <rect key={i} className={p.className} x={`${x.toFixed(3)}%`} width={`${w.toFixed(3)}%`} y="0" height="32" />
          )
          x += w
          return rect
        })
      )}
    </Chart>
  )
}

const ROW = 30

/** a horizontal bar per item, longest first as given, each with its rank before it and its figure after it */
export function RankedBars({ values, shown, summary }: { values: number[]; shown: string[]; summary: string }) {
  const max = Math.max(1, ...values)
  // the rank's column, then the bars; the figure follows its bar
  const start = 8
  const room = 62
  return (
    <Chart summary={summary} height={values.length * ROW}>
      {values.map((v, i) => {
        const w = (v / max) * room
        const y = i * ROW
        return (
          <g key={i}>
            <text className="ov-figure" x="0" y={y + 20}>
              {i + 1}
            </text>
            <rect className="ov-bar-declined" x={`${start}%`} width={`${w.toFixed(3)}%`} y={y + 6} height={ROW - 12} />
            <text className="ov-figure" x={`${(start + w).toFixed(3)}%`} dx="6" y={y + 20}>
              {shown[i]}
            </text>
          </g>
        )
      })}
    </Chart>
  )
}

/** the overview's own styles (beside the dashboard's): the charts' colours, the legends and the axes */
export const overviewCss = `
.ov-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,30rem),1fr));gap:0 1rem}
.ov-chart{display:block;overflow:visible;margin:.5rem 0}
.ov-bar{fill:#2346c8}
.ov-bar-paid{fill:#1d7a3a}
.ov-bar-declined{fill:#b00020}
.ov-bar-pending{fill:#a35f00}
.ov-empty{fill:#e3e6f0}
.ov-axis-line{stroke:#9aa3bd}
.ov-figure{font-size:13px;fill:#1a1a2e}
.ov-axis{display:flex;justify-content:space-between;gap:1rem;color:#555;font-size:.85rem}
.ov-axis span{white-space:nowrap}
.ov-big{font-size:1.6rem;font-weight:700;margin:.25rem 0}
.ov-legend{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;list-style:none;margin:.25rem 0;padding:0}
.ov-legend li{display:flex;align-items:center;gap:.4rem}
.ov-swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;flex:none}
.ov-sw-paid{background:#1d7a3a}
.ov-sw-declined{background:#b00020}
.ov-sw-pending{background:#a35f00}
.ov-links{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:.5rem 0 0}
.ov-card h2{margin-bottom:.25rem}
.ov-card details{margin-top:.5rem}
.ov-card summary{cursor:pointer;color:#2346c8}
.ov-card td.ov-num,.ov-card th.ov-num{text-align:right}
.ov-reasons{margin:.25rem 0;padding-left:1.5rem}
.ov-reasons li{margin:.2rem 0}
.ov-reasons .dash-reason code{white-space:nowrap}
`
