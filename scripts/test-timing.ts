// Where `npm test`'s time goes: wall time and CPU time (user + system) of each phase, CPU counted over the
// runner's whole process tree (its own, its live descendants', and what finished children left to their
// parents). Other work on the machine stretches wall times; CPU time barely moves with it, so it is the
// figure to compare between runs.
import fs from 'node:fs'

const TICKS_PER_SECOND = 100 // USER_HZ, 100 on every Linux ABI Node.js runs on

/** utime + stime + cutime + cstime of one process, in ticks, its parent and its name; null when it is gone */
function readStat(pid: string): { ppid: string; ticks: number; name: string } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // the command name may hold spaces and parentheses: the fields start after its last ')'
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    return { ppid: f[1], ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]), name }
  } catch {
    return null
  }
}

// PostgreSQL detaches from whoever starts it (pg_ctl): its servers, the run's and those tests start, are
// counted by their working directory (a data folder, inside this checkout) and remembered by pid, so that
// what a stopped server used still counts.
const orphans = new Map<string, number>()

/** CPU seconds used so far by this process and everything it started (0 where /proc is missing) */
export function treeCpuSeconds(): number {
  if (!fs.existsSync('/proc/self/stat')) return 0
  const stats = new Map<string, { ppid: string; ticks: number; name: string }>()
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    const s = readStat(pid)
    if (s) stats.set(pid, s)
  }
  const children = new Map<string, string[]>()
  for (const [pid, s] of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid])
  const tree = (root: string) => {
    let ticks = 0
    const todo = [root]
    while (todo.length) {
      const pid = todo.pop()!
      ticks += stats.get(pid)?.ticks ?? 0
      todo.push(...(children.get(pid) ?? []))
    }
    return ticks
  }
  const here = process.cwd() + '/'
  for (const pid of children.get('1') ?? []) {
    if (stats.get(pid)?.name !== 'postgres') continue
    let cwd: string
    try {
      cwd = fs.readlinkSync(`/proc/${pid}/cwd`) + '/'
    } catch {
      continue // gone, or not ours to read
    }
    if (cwd.startsWith(here)) orphans.set(pid, tree(pid))
  }
  let ticks = tree(String(process.pid))
  for (const t of orphans.values()) ticks += t
  return ticks / TICKS_PER_SECOND
}

export interface PhaseTime {
  name: string
  wallSeconds: number
  cpuSeconds: number
}

/** the phases timed so far, in order */
export const phaseTimes: PhaseTime[] = []

/** runs `fn` as the phase `name`, its wall and CPU time added to phaseTimes (also when it throws) */
export async function timed<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
  const wall = performance.now()
  const cpu = treeCpuSeconds()
  try {
    return await fn()
  } finally {
    phaseTimes.push({ name, wallSeconds: (performance.now() - wall) / 1000, cpuSeconds: treeCpuSeconds() - cpu })
  }
}

/** one line per phase, then the total: `name: 12.3 s, CPU 20.1 s` */
export function phaseReport(totalWallSeconds: number): string[] {
  const width = Math.max(...phaseTimes.map((p) => p.name.length), 5)
  const line = (name: string, wall: number, cpu: number) =>
    `${`${name}:`.padEnd(width + 1)} ${wall.toFixed(1).padStart(6)} s, CPU ${cpu.toFixed(1).padStart(6)} s`
  return [
    ...phaseTimes.map((p) => line(p.name, p.wallSeconds, p.cpuSeconds)),
    line('total', totalWallSeconds, treeCpuSeconds()),
  ]
}
