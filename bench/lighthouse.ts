// The payment page in the browser, for `npm run bench`: Lighthouse (its defaults: mobile form factor
// and screen, simulated throttling) on Debian's Chromium, run several times with the median run (by
// performance score) kept, plus the page's script weight (bench/page-weight.ts); each figure against
// its target (issue 13). Nothing is fetched from outside: the page is on 127.0.0.1 and Chromium
// resolves no host name (bench/chromium.ts).
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CHROMIUM_FLAGS, CHROMIUM_PATH, chromiumVersion } from './chromium.ts'
import {
  GZIP_LEVEL,
  SCRIPT_BUDGET_GZIP,
  describePageWeight,
  kb,
  measurePageWeight,
  type PageWeight,
} from './page-weight.ts'

const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const

export interface LighthouseRun {
  scores: Record<(typeof CATEGORIES)[number], number>
  lcpMs: number
  tbtMs: number
  interactiveMs: number
  fcpMs: number
  cls: number
  speedIndexMs: number
  /** what the unused-javascript audit estimates could be saved, bytes (transferred) */
  unusedJsBytes: number
  /** the transfer sizes of every script request, summed */
  scriptTransferBytes: number
  /** the script requests Lighthouse saw */
  scriptUrls: string[]
  /** the element Lighthouse took as the largest contentful paint (a CSS selector and its text) */
  lcpElement: string
  /** what is not passing: audits and insights of the three categories scoring below 1 (metrics aside) */
  findings: { id: string; title: string; displayValue: string; score: number | null }[]
  lighthouseVersion: string
  userAgent: string
  /** the whole report (JSON) */
  report: string
}

/* the report is read loosely: its types are Lighthouse's, but only a few fields are needed */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parts of the report read loosely
type Loose = any
type Audit = {
  id: string
  title: string
  score: number | null
  scoreDisplayMode: string
  numericValue?: number
  displayValue?: string
  details?: Loose
  metricSavings?: Record<string, number>
}

function figures(lhr: Loose, report: string): LighthouseRun {
  const audits: Record<string, Audit> = lhr.audits
  const num = (id: string) => {
    const v = audits[id]?.numericValue
    if (typeof v !== 'number') throw new Error(`the Lighthouse report has no figure for ${id}`)
    return v
  }
  const requests: Loose[] = audits['network-requests']?.details?.items ?? []
  const scripts = requests.filter((r) => r.resourceType === 'Script')
  // the metrics are figures of their own; what else the categories weigh or show
  const metrics = new Set([
    'largest-contentful-paint',
    'total-blocking-time',
    'interactive',
    'first-contentful-paint',
    'cumulative-layout-shift',
    'speed-index',
  ])
  const inCategories = new Set(
    CATEGORIES.flatMap((c) =>
      lhr.categories[c].auditRefs
        .filter((a: { group?: string }) => a.group !== 'metrics')
        .map((a: { id: string }) => a.id),
    ),
  )
  const findings = Object.values(audits)
    .filter((a) => inCategories.has(a.id) && !metrics.has(a.id))
    .filter(
      (a) => ['binary', 'numeric', 'metricSavings'].includes(a.scoreDisplayMode) && a.score !== null && a.score < 1,
    )
    .map((a) => {
      // what the issues panel holds (e.g. "Content security policy") says more than the audit's title
      const issues =
        a.id === 'inspector-issues'
          ? (a.details?.items ?? [])
              .map((i: { issueType?: string }) => i.issueType)
              .filter(Boolean)
              .join(', ')
          : ''
      return { id: a.id, title: a.title, displayValue: a.displayValue ?? issues, score: a.score }
    })
  const lcpNode = (audits['lcp-breakdown-insight']?.details?.items ?? []).find(
    (i: { type?: string }) => i.type === 'node',
  )
  return {
    scores: Object.fromEntries(
      CATEGORIES.map((c) => [c, Math.round((lhr.categories[c].score ?? 0) * 100)]),
    ) as LighthouseRun['scores'],
    lcpMs: num('largest-contentful-paint'),
    lcpElement: lcpNode ? `${lcpNode.selector} (“${String(lcpNode.nodeLabel ?? '').slice(0, 60)}”)` : 'unknown',
    tbtMs: num('total-blocking-time'),
    interactiveMs: num('interactive'),
    fcpMs: num('first-contentful-paint'),
    cls: num('cumulative-layout-shift'),
    speedIndexMs: num('speed-index'),
    unusedJsBytes: audits['unused-javascript']?.details?.overallSavingsBytes ?? 0,
    scriptTransferBytes: scripts.reduce((s, r) => s + (r.transferSize ?? 0), 0),
    scriptUrls: scripts.map((r) => r.url),
    findings,
    lighthouseVersion: lhr.lighthouseVersion,
    userAgent: lhr.environment?.hostUserAgent ?? '',
    report,
  }
}

/** one Lighthouse run on a Chromium of its own */
async function runOnce(url: string): Promise<LighthouseRun> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROMIUM_FLAGS,
    logLevel: 'silent',
  })
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
    })
    if (!result) throw new Error('Lighthouse gave no result')
    const { lhr } = result
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
    return figures(lhr, result.report as string)
  } finally {
    chrome.kill()
  }
}

/** what Lighthouse's accessibility and best-practices categories say of one page: each score and what fails */
export interface PageAudit {
  url: string
  /** where the page was in the end (after any redirect) */
  finalUrl: string
  scores: { accessibility: number; 'best-practices': number }
  /** the audits of those categories scoring below 1, with what the issues panel holds for inspector-issues */
  failing: string[]
}

/**
 * Accessibility and best practices (no performance: nothing timed) of each of `urls`, in one Chromium, the requests
 * carrying `headers` (a session's cookie): what tests assert of the dashboard's pages (issue 33).
 */
export async function auditPages(urls: string[], headers: Record<string, string> = {}): Promise<PageAudit[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROMIUM_FLAGS,
    logLevel: 'silent',
  })
  try {
    const out: PageAudit[] = []
    for (const url of urls) {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['accessibility', 'best-practices'],
        extraHeaders: headers,
        // the page as a phone shows it, but not throttled and with no pictures or back-forward cache probe (a second
        // navigation): only the categories' pass/fail audits matter here, and each run costs seconds
        throttlingMethod: 'provided',
        disableFullPageScreenshot: true,
        skipAudits: ['bf-cache', 'screenshot-thumbnails', 'final-screenshot'],
      })
      if (!result) throw new Error(`Lighthouse gave no result for ${url}`)
      const { lhr } = result
      if (lhr.runtimeError)
        throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
      const audits: Record<string, Audit> = lhr.audits as Loose
      const ids = new Set(
        ['accessibility', 'best-practices'].flatMap((c) =>
          lhr.categories[c].auditRefs.map((a: { id: string }) => a.id),
        ),
      )
      const failing = Object.values(audits)
        .filter((a) => ids.has(a.id) && a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative')
        .map((a) => {
          const items: Loose[] = a.details?.items ?? []
          const what = items
            .map((i) => i.issueType ?? i.description ?? i.source?.url ?? i.node?.snippet ?? '')
            .filter(Boolean)
            .slice(0, 3)
            .join('; ')
          return `${a.id}: ${a.title}${what ? ` (${what})` : ''}`
        })
      out.push({
        url,
        finalUrl: lhr.finalDisplayedUrl,
        scores: {
          accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
          'best-practices': Math.round((lhr.categories['best-practices'].score ?? 0) * 100),
        },
        failing,
      })
    }
    return out
  } finally {
    chrome.kill()
  }
}

/** `runs` Lighthouse runs of `url`; the median one by performance score (ties: by LCP) */
export async function runLighthouse(
  url: string,
  runs = 3,
  log: (l: string) => void = () => {},
): Promise<{ median: LighthouseRun; runs: LighthouseRun[] }> {
  const all: LighthouseRun[] = []
  for (let i = 0; i < runs; i++) {
    const r = await runOnce(url)
    log(
      `Lighthouse run ${i + 1}/${runs}: performance ${r.scores.performance}, LCP ${ms(r.lcpMs)}, TBT ${ms(r.tbtMs)}, interactive ${ms(r.interactiveMs)}; LCP element ${r.lcpElement}`,
    )
    all.push(r)
  }
  const sorted = [...all].sort((a, b) => a.scores.performance - b.scores.performance || b.lcpMs - a.lcpMs)
  return { median: sorted[Math.floor((sorted.length - 1) / 2)], runs: all }
}

const ms = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`)

export interface Check {
  figure: string
  value: string
  target: string
  met: boolean
}

/** every figure with a target, against it */
export function checks(lh: LighthouseRun, weight: PageWeight): Check[] {
  const score = (figure: string, v: number): Check => ({ figure, value: String(v), target: '100', met: v >= 100 })
  return [
    score('Lighthouse performance', lh.scores.performance),
    score('Lighthouse accessibility', lh.scores.accessibility),
    score('Lighthouse best practices', lh.scores['best-practices']),
    { figure: 'largest contentful paint (LCP)', value: ms(lh.lcpMs), target: '≤ 1.2 s', met: lh.lcpMs <= 1200 },
    { figure: 'total blocking time (TBT)', value: ms(lh.tbtMs), target: '≤ 50 ms', met: lh.tbtMs <= 50 },
    { figure: 'time to interactive', value: ms(lh.interactiveMs), target: '≤ 1.5 s', met: lh.interactiveMs <= 1500 },
    {
      figure: `scripts, gzipped (zlib level ${GZIP_LEVEL})`,
      value: kb(weight.totalGzipBytes),
      target: `≤ ${kb(SCRIPT_BUDGET_GZIP)}`,
      met: weight.totalGzipBytes <= SCRIPT_BUDGET_GZIP,
    },
  ]
}

/**
 * The payment page at `baseUrl` + `pagePath` in the browser: Lighthouse `runs` times (the median run's
 * report written to `reportFile`), the script weight, each figure against its target (logged).
 * Answers whether every target is met and the section of bench/RESULTS.md.
 */
export async function benchPaymentPage({
  baseUrl,
  pagePath,
  themed = false,
  runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS || 5),
  reportFile = themed ? 'data/lighthouse-pay-themed.json' : 'data/lighthouse-pay.json',
  log = (l: string) => console.log(`[bench] ${l}`),
}: {
  baseUrl: string
  pagePath: string
  /** the bill names a theme of its site (a logo, background and button colours): the section says so */
  themed?: boolean
  runs?: number
  reportFile?: string
  log?: (l: string) => void
}): Promise<{ ok: boolean; markdown: string[] }> {
  const url = new URL(pagePath, baseUrl).href
  // the server's first renders (code loaded, caches filled) are not the page's
  for (let i = 0; i < 5; i++) await fetch(url).then((r) => r.text())
  // the runs' TBT and LCP move with whatever else the machine's cores are doing
  const load = `load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`
  log(
    `the payment page${themed ? ' with a theme' : ''} in the browser: Lighthouse ${runs}× (mobile, simulated throttling) on ${chromiumVersion()}; ${load}`,
  )
  const { median, runs: all } = await runLighthouse(url, runs, log)
  fs.mkdirSync(path.dirname(reportFile), { recursive: true })
  fs.writeFileSync(reportFile, median.report)
  log(`median run's report: ${reportFile}`)
  const weight = await measurePageWeight(baseUrl, pagePath, { extraScripts: median.scriptUrls })
  for (const l of describePageWeight(weight)) log(`script weight: ${l}`)

  const list = checks(median, weight)
  log(`payment page${themed ? ' with a theme' : ''} (median of ${runs} Lighthouse runs by performance score):`)
  for (const c of list) log(`  ${c.figure}: ${c.value} (target ${c.target}) ${c.met ? 'met' : 'NOT MET'}`)
  log(`  LCP element ${median.lcpElement}`)
  log(
    `  first contentful paint ${ms(median.fcpMs)}, speed index ${ms(median.speedIndexMs)}, CLS ${median.cls.toFixed(3)}, unused JavaScript ${kb(median.unusedJsBytes)}, scripts transferred ${kb(median.scriptTransferBytes)}`,
  )
  for (const f of median.findings) log(`  finding: ${f.title}${f.displayValue ? ` — ${f.displayValue}` : ''} [${f.id}]`)
  const ok = list.every((c) => c.met)

  const esc = (s: string) => s.replace(/\|/g, '\\|')
  const markdown = [
    '',
    themed ? THEMED_SECTION : SECTION,
    '',
    ...(themed
      ? [
          'The same bench on a bill that names a theme of its site (`customFields.themeCode`, lib/themes): a background and button colours and an SVG logo of 96 × 48 served from `/pay-theme/…`. Measured in the same run, after the default page.',
          '',
        ]
      : []),
    `Lighthouse ${median.lighthouseVersion} (\`bench/lighthouse.ts\`; \`BENCH_ONLY=lighthouse npm run bench\` runs this part alone, both pages) on ${esc(chromiumVersion())} (headless), Node ${process.version}: its defaults — mobile form factor and screen, simulated throttling (slow 4G, 4× CPU) — on a bill's page \`/pay/<invoiceUid>\` served by the production build. ` +
      `${runs} runs; the median one by performance score is shown (the runs: performance ${all.map((r) => r.scores.performance).join(', ')}; LCP ${all.map((r) => ms(r.lcpMs)).join(', ')}; TBT ${all.map((r) => ms(r.tbtMs)).join(', ')}; ${load} before the runs: the machine's other work lengthens TBT and LCP). ` +
      `Script weight (\`bench/page-weight.ts\`): everything the page can run: its HTML's \`<script src>\` and script preloads, every script Chromium fetches while loading it and at the payer's first move (a focus on the form), and its inline scripts, each gzipped by zlib at level ${GZIP_LEVEL}. The form's script runs only at that first move: Lighthouse, which does not touch the page, measures the page until then (the script is fetched, with low priority, not run).`,
    '',
    '| figure | measured | target | |',
    '|---|---|---|---|',
    ...list.map((c) => `| ${c.figure} | ${c.value} | ${c.target} | ${c.met ? 'met' : '**not met**'} |`),
    `| LCP element | ${esc(median.lcpElement)} | | |`,
    `| first contentful paint | ${ms(median.fcpMs)} | | |`,
    `| speed index | ${ms(median.speedIndexMs)} | | |`,
    `| cumulative layout shift | ${median.cls.toFixed(3)} | | |`,
    `| unused JavaScript (Lighthouse's estimate) | ${kb(median.unusedJsBytes)} | | |`,
    `| scripts transferred (Lighthouse's network requests) | ${kb(median.scriptTransferBytes)} in ${median.scriptUrls.length} requests | | |`,
    '',
    `Scripts of the page (${weight.scripts.length}; ${kb(weight.totalBytes)} uncompressed, ${kb(weight.totalGzipBytes)} gzipped; served with Content-Encoding: ${weight.servedEncoding || 'none'}). Inline scripts of the HTML that run, counted: ${weight.inline.count}, ${kb(weight.inline.gzipBytes)} gzipped.`,
    '',
    '| script | uncompressed | gzipped |',
    '|---|---|---|',
    ...weight.scripts.map(
      (s) =>
        `| \`${s.url}\`${s.nomodule ? ' (nomodule: not fetched by current browsers)' : ''} | ${kb(s.bytes)} | ${kb(s.gzipBytes)} |`,
    ),
    `| total | ${kb(weight.totalBytes)} | ${kb(weight.totalGzipBytes)} (${weight.totalGzipBytes} bytes) |`,
    ...(weight.totalGzipBytesModern !== weight.totalGzipBytes
      ? [`| total without nomodule scripts | | ${kb(weight.totalGzipBytesModern)} |`]
      : []),
    '',
    median.findings.length
      ? 'What Lighthouse finds (audits and insights of the three categories not passing):'
      : 'Lighthouse finds nothing to improve.',
    ...median.findings.map((f) => `- ${esc(f.title)}${f.displayValue ? `: ${esc(f.displayValue)}` : ''} (\`${f.id}\`)`),
  ]
  return { ok, markdown }
}

const SECTION = '## Payment page in the browser'
const THEMED_SECTION = '## Payment page in the browser, with a theme'

/**
 * Puts `markdown` (benchPaymentPage's section) into the results file in place of the section there, or
 * after the figures' table when it has none, leaving everything else as it is: what
 * BENCH_ONLY=lighthouse writes.
 */
export function replaceBrowserSection(file: string, markdown: string[]): void {
  const lines = fs.existsSync(file)
    ? fs.readFileSync(file, 'utf8').replace(/\n+$/, '').split('\n')
    : ['# Benchmark results']
  const body = markdown.join('\n').trim().split('\n')
  // the section markdown begins with (the default page's or the themed one's)
  const heading = body.find((l) => l.startsWith('## '))!
  let start = lines.indexOf(heading)
  let end: number
  if (start >= 0) {
    end = lines.findIndex((l, i) => i > start && l.startsWith('## '))
    if (end < 0) end = lines.length
  } else if (heading === THEMED_SECTION && lines.includes(SECTION)) {
    // right after the default page's section
    const from = lines.indexOf(SECTION)
    const next = lines.findIndex((l, i) => i > from && l.startsWith('## '))
    start = end = next < 0 ? lines.length : next
  } else {
    // after the first table (the API scenarios), before any section
    const next = lines.findIndex((l) => l.startsWith('## '))
    start = end = next < 0 ? lines.length : next
  }
  const before = lines.slice(0, start)
  while (before.length && before[before.length - 1] === '') before.pop()
  const after = lines.slice(end)
  fs.writeFileSync(file, [...before, '', ...body, ...(after.length ? ['', ...after] : []), ''].join('\n'))
}
