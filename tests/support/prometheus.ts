// Reading Prometheus' text format as a scraper does: samples by metric name and labels.
import { request, type Answer } from './api.ts'

export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g

/** every sample of an exposition; a line that is neither a sample, a comment nor empty fails */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue
    const m = LINE.exec(line)
    if (!m) throw new Error(`not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const [, k, v] of (m[2] ?? '').matchAll(LABEL))
      labels[k] = v.replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c))
    samples.push({ name: m[1], labels, value: Number(m[3]) })
  }
  return samples
}

export class Scrape {
  readonly samples: Sample[]
  constructor(readonly answer: Answer) {
    this.samples = parseExposition(answer.text)
  }

  /** the value of the one sample of `name` carrying (at least) these labels; undefined when there is none */
  value(name: string, labels: Record<string, string> = {}): number | undefined {
    const found = this.samples.filter(
      (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    )
    if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`)
    return found[0]?.value
  }

  /** like value(), 0 when absent (a counter not yet incremented) */
  count(name: string, labels: Record<string, string> = {}): number {
    return this.value(name, labels) ?? 0
  }
}

/** GET /api/metrics of `base` with the token; it must answer 200 in Prometheus' text format */
export async function scrape(base: string, token: string): Promise<Scrape> {
  const answer = await request('GET', '/api/metrics', { base, token, headers: { Accept: 'text/plain' } })
  if (answer.status !== 200) throw new Error(`metrics answered ${answer.status}: ${answer.text}`)
  return new Scrape(answer)
}
