// Sums a --cpu-prof profile's self time by where the code lives: Node's internals, Next.js, Prisma,
// pg, zod, React, the application's own code (its modules inside Next's server chunks are told apart
// by their paths in the bundle), garbage collection. Idle time is left out of the shares.
//   node --import tsx bench/profile-summary.ts <file.cpuprofile> [--top N] [--functions] [--last SECONDS] [--groups]
// --groups: the shares of Next.js, Node's internals, socket writes, GC, pg, Prisma, zod, our code, other packages
// --last: only the profile's last seconds (the measured load, without the start and the seeding)
import fs from 'node:fs'

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}
interface Profile {
  nodes: Node[]
  samples: number[]
  timeDeltas: number[]
}

const [file, ...args] = process.argv.slice(2)
if (!file) {
  console.error('usage: profile-summary <file.cpuprofile> [--top N] [--functions]')
  process.exit(2)
}
const top = Number(args[args.indexOf('--top') + 1]) || 25
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile

// Next's server chunks carry source maps (.js.map beside them): a function in a chunk is counted under
// the file it came from (lib/…, app/…, or its package)
const B64 = new Map([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]))
type Mapping = { line: number; column: number; source: number }
const maps = new Map<string, { sources: string[]; lines: Mapping[][] } | null>()
function loadMap(file: string) {
  if (maps.has(file)) return maps.get(file)!
  let map: { sources: string[]; lines: Mapping[][] } | null
  try {
    const raw = JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) as {
      sources: string[]
      mappings?: string
      sections?: { offset: { line: number; column: number }; map: { sources: string[]; mappings: string } }[]
    }
    const sections = raw.sections ?? [
      { offset: { line: 0, column: 0 }, map: raw as { sources: string[]; mappings: string } },
    ]
    const sources: string[] = []
    const lines: Mapping[][] = []
    for (const { offset, map: m } of sections) {
      const base = sources.length
      sources.push(...m.sources)
      let source = 0
      let origLine = 0
      m.mappings.split(';').forEach((segs, li) => {
        let col = 0
        const line = offset.line + li
        for (const seg of segs.split(',')) {
          if (!seg) continue
          const values: number[] = []
          let value = 0
          let shift = 0
          for (const ch of seg) {
            const d = B64.get(ch)!
            value += (d & 31) << shift
            if (d & 32) shift += 5
            else {
              values.push(value & 1 ? -(value >>> 1) : value >>> 1)
              value = 0
              shift = 0
            }
          }
          col += values[0]
          if (values.length >= 4) {
            source += values[1]
            origLine += values[2]
            // values[3], the original column, is left out: only the source and its line are kept
            ;(lines[line] ??= []).push({
              line: origLine,
              column: (li === 0 ? offset.column : 0) + col,
              source: base + source,
            })
          }
        }
      })
    }
    map = { sources, lines }
  } catch {
    map = null
  }
  maps.set(file, map)
  return map
}
function sourceOf(url: string, line: number, column: number): string | null {
  const map = loadMap(url.replace(/^file:\/\//, ''))
  const segs = map?.lines[line]
  if (!segs?.length) return null
  let best = segs[0]
  for (const s of segs) if (s.column <= column) best = s
  return map!.sources[best.source].replace(/^(\.\.\/)+/, '')
}

export function category(url: string, fn: string, line = 0, column = 0): string {
  if (url.includes('/.next/')) {
    const source = sourceOf(url, line, column)
    if (source) return source.startsWith('node_modules/') ? `${category(`/${source}`, fn)} (bundled)` : source
  }
  if (!url) {
    if (fn === '(idle)') return 'idle'
    if (fn === '(garbage collector)') return 'GC'
    if (fn === '(program)') return 'program (native, unattributed)'
    return `native: ${fn}`
  }
  if (url.startsWith('node:')) return `node ${url.replace(/^node:internal\//, '').split('/')[0]}`
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (m) {
    const pkg = m[1]
    if (pkg === 'next')
      return /dist\/compiled\/([^/]+)/.exec(url)?.[1]
        ? `next (compiled ${/dist\/compiled\/([^/]+)/.exec(url)![1]})`
        : 'next'
    return pkg
  }
  if (url.includes('/.next/')) return 'app bundle (.next chunks)'
  if (url.includes('/lib/generated/')) return 'prisma generated client'
  return url.replace(/^file:\/\/[^]*?\/(lib|scripts|app)\//, '$1/')
}

const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const last = args.includes('--last') ? Number(args[args.indexOf('--last') + 1]) * 1e6 : Infinity
const total = profile.timeDeltas.reduce((a, b) => a + b, 0)
const self = new Map<number, number>()
let t = 0
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i] ?? 0
  if (t < total - last) continue
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0))
}

const byCategory = new Map<string, number>()
const byFunction = new Map<string, number>()
let busy = 0
for (const [id, us] of self) {
  const n = byId.get(id)!
  const { url, functionName, lineNumber } = n.callFrame
  const c = category(url, functionName, lineNumber, n.callFrame.columnNumber)
  if (c === 'idle') continue
  busy += us
  byCategory.set(c, (byCategory.get(c) ?? 0) + us)
  const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|\.next)\//, '$1/')}:${lineNumber + 1}`
  byFunction.set(key, (byFunction.get(key) ?? 0) + us)
}
const rows = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1])
console.log(`busy ${(busy / 1e6).toFixed(2)} s of ${(Math.min(total, last) / 1e6).toFixed(2)} s`)
for (const [c, us] of rows(byCategory).slice(0, top))
  console.log(`${((us / busy) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${c}`)
/** the broad owner of a category */
function group(c: string): string {
  if (c.startsWith('next') || c.startsWith('turbopack') || c.startsWith('react'))
    return 'Next.js (incl. its bundled runtime)'
  if (c === 'GC') return 'garbage collection'
  if (/^native: (writev|writeUtf8String|writeBuffer|writeString|writeLatin1String)$/.test(c))
    return 'socket and file writes (syscalls; includes time preempted by PostgreSQL and the load generator)'
  if (c.startsWith('node ') || c.startsWith('native') || c.startsWith('program'))
    return 'Node.js internals (HTTP, streams, Web Request/Response, promises, crypto)'
  if (/^(pg|pg-protocol|pg-pool|pg-types|pg-connection-string|postgres-[a-z]+)( \(bundled\))?$/.test(c))
    return 'pg driver'
  if (c.includes('prisma')) return 'Prisma'
  if (c.startsWith('zod')) return 'zod'
  if (/^(lib|app|scripts|bench|components)\//.test(c) || c.startsWith('proxy.ts'))
    return 'our code (lib/, app/, scripts/)'
  return `other: ${c}`
}
if (args.includes('--groups')) {
  const groups = new Map<string, number>()
  for (const [c, us] of byCategory) groups.set(group(c), (groups.get(group(c)) ?? 0) + us)
  console.log('\nby owner:')
  for (const [g, us] of rows(groups)) console.log(`${((us / busy) * 100).toFixed(1).padStart(5)}%  ${g}`)
}
// --ours: the time spent under our code's frames (inclusive), by the owner of the code that ran
if (args.includes('--ours')) {
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const ourCache = new Map<number, boolean>()
  const isOurs = (id: number): boolean => {
    const n = byId.get(id)!
    const c = category(n.callFrame.url, n.callFrame.functionName, n.callFrame.lineNumber, n.callFrame.columnNumber)
    return group(c).startsWith('our code')
  }
  const underOurs = (id: number): boolean => {
    const known = ourCache.get(id)
    if (known !== undefined) return known
    const p = parent.get(id)
    const r = isOurs(id) || (p !== undefined && underOurs(p))
    ourCache.set(id, r)
    return r
  }
  const under = new Map<string, number>()
  let inside = 0
  for (const [id, us] of self) {
    const n = byId.get(id)!
    const c = category(n.callFrame.url, n.callFrame.functionName, n.callFrame.lineNumber, n.callFrame.columnNumber)
    if (c === 'idle' || !underOurs(id)) continue
    inside += us
    under.set(group(c), (under.get(group(c)) ?? 0) + us)
  }
  console.log(`\nunder our code's frames (inclusive): ${((inside / busy) * 100).toFixed(1)}% of busy time, of which:`)
  for (const [g, us] of rows(under)) console.log(`${((us / busy) * 100).toFixed(1).padStart(5)}%  ${g}`)
}
if (args.includes('--functions')) {
  console.log('\nfunctions by self time:')
  for (const [f, us] of rows(byFunction).slice(0, top))
    console.log(`${((us / busy) * 100).toFixed(1).padStart(5)}%  ${f}`)
}
