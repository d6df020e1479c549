// The documentation's shell examples, read as a newcomer reads them: every ```sh block of README.md and of
// every docs/**/*.md, in order, split into commands, with what the page says each answers.
// tests/http/readme-examples.test.ts runs each page's commands against a fresh database, in a shell of
// their own; tests/unit checks the reading itself.
//
// What a command is expected to answer comes from the comment lines right after it:
//   # 400 {"errorCode":…}              the HTTP status of the command's curl request(s) (a status
//                                      then a JSON answer, an error code, or nothing)
//   # status COMPLETED, reason X …     the answer's status.value (and status.reason)
//   # {…,"status":{"value":"WAITING"…   the same, from a JSON fragment
// Without a status line a curl request must answer 2xx. A ```json block right after a ```sh block is
// the answer of that block's last command, as printed (see matchesShown). A ```sh block right after the
// line `<!-- readme-examples: skip -->` is not run: it needs a service started otherwise than the pages' own.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

export interface ExampleCommand {
  /** the line of its page the command starts on */
  line: number
  text: string
  /** the HTTP status its curl requests answer; 2xx when not given */
  httpStatus?: number
  /** the answer's status.value */
  statusValue?: string
  /** the answer's status.reason */
  statusReason?: string
  /** the answer as printed on the page (a ```json block right after the command's block, for its last command) */
  shown?: { line: number; json: unknown }
  /** `"key":value` pairs its comments print (`# {…,"status":{"value":"WAITING"}…`): each must be in the answer */
  pairs?: { key: string; value: unknown }[]
}

/** the marker, alone on the line before a ```sh block (blank lines between allowed), of a block that is not run */
export const SKIP_MARKER = '<!-- readme-examples: skip -->'
/** the commands that are not run: starting the service, its suite, its bench or its tools, the webhook listener (which
 * runs until stopped: tests/http/quick-start.test.ts runs it), settings before them too */
const NOT_RUN =
  /^(?:[A-Z_]+=\S*\s+)*npm (?:start|test|run (?:dev|build|bench|db:migration|db:indexes|test:stress|audit|lint|format|openapi|webhooks))\b/

/** the pages whose examples run: README.md, then every .md file under docs/, in path order */
export function docFiles(root = '.'): string[] {
  const docs = fs
    .readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f).split(path.sep).join('/'))
    .sort()
  return ['README.md', ...docs]
}

export function readmeText(file = 'README.md', root = '.'): string {
  return fs.readFileSync(path.join(root, file), 'utf8')
}

/**
 * A page as it runs against another service than a newcomer's `npm start`: the service at `base` instead of
 * http://localhost:3000 (in the `export BASE=…` line and in the answers printed), the demo token `npm start`
 * printed and kept in data/demo.token, and the metrics token it keeps in data/metrics.token.
 */
export function withService(text: string, o: { base: string; token: string; metricsToken: string }): string {
  return text
    .replaceAll('http://localhost:3000', o.base)
    .replaceAll('TOKEN=sk_…', `TOKEN=${o.token}`)
    .replaceAll('$(cat data/demo.token)', o.token)
    .replaceAll('$(cat data/metrics.token)', o.metricsToken)
}

/** the commands of a page, in its order */
export function readmeCommands(text: string): ExampleCommand[] {
  const lines = text.split('\n')
  const end = lines.length
  const commands: ExampleCommand[] = []
  let i = 0
  while (i < end) {
    if (lines[i] !== '```sh') {
      i++
      continue
    }
    const first = i + 1
    let close = first
    while (close < end && lines[close] !== '```') close++
    let before = i - 1
    while (before >= 0 && lines[before].trim() === '') before--
    const skipped = before >= 0 && lines[before].trim() === SKIP_MARKER
    const block = skipped
      ? []
      : splitCommands(lines.slice(first, close), first + 1).filter((c) => !NOT_RUN.test(c.text))
    commands.push(...block)
    i = close + 1
    // a ```json block right after (blank lines between) is the answer of the block's last command
    let j = i
    while (j < end && lines[j].trim() === '') j++
    if (lines[j] === '```json' && block.length) {
      let jsonEnd = j + 1
      while (jsonEnd < end && lines[jsonEnd] !== '```') jsonEnd++
      const body = lines.slice(j + 1, jsonEnd).join('\n')
      try {
        block.at(-1)!.shown = { line: j + 2, json: JSON.parse(body) }
      } catch (e) {
        throw new Error(`line ${j + 2}: the answer shown is not JSON: ${(e as Error).message}`, {
          cause: e,
        })
      }
      i = jsonEnd + 1
    }
  }
  return commands
}

/**
 * A block's lines as shell commands: a command goes on over a line ending in `\` and over a newline
 * inside quotes; `#` at the start of a word starts a comment. Comment lines after a command say what it
 * answers.
 */
export function splitCommands(lines: string[], firstLine: number): ExampleCommand[] {
  const out: ExampleCommand[] = []
  let current: ExampleCommand | null = null
  let quote: "'" | '"' | null = null
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]
    if (!current && !quote) {
      const trimmed = line.trim()
      if (trimmed === '') continue
      if (trimmed.startsWith('#')) {
        if (out.length) annotate(out.at(-1)!, trimmed)
        continue
      }
      current = { line: firstLine + n, text: '' }
    }
    let text = ''
    let continued = false
    for (let k = 0; k < line.length; k++) {
      const ch = line[k]
      if (quote) {
        if (ch === quote) quote = null
        else if (quote === '"' && ch === '\\') {
          text += ch + (line[k + 1] ?? '')
          k++
          continue
        }
        text += ch
        continue
      }
      if (ch === "'" || ch === '"') quote = ch
      else if (ch === '#' && (k === 0 || /\s/.test(line[k - 1]))) break
      else if (ch === '\\' && k === line.length - 1) {
        continued = true
        break
      } else if (ch === '\\') {
        text += ch + (line[k + 1] ?? '')
        k++
        continue
      }
      text += ch
    }
    current!.text += (current!.text ? '\n' : '') + (continued ? text.trimEnd() + ' \\' : text.trimEnd())
    if (!quote && !continued) {
      current!.text = current!.text.trim()
      out.push(current!)
      current = null
    }
  }
  if (current)
    throw new Error(`line ${current.line}: a command is not closed (a quote or a \\ at the end of the block)`)
  return out
}

// `# 400 {…`, `# 409 payin.request.conflict`, `# 404` alone: an HTTP status (not `# 100 ms …`)
const STATUS_LINE =
  /^#\s+(?:([1-5]\d\d)(?=\s*$|\s+[{[]|\s+[a-z]+\.[a-z.-]+)\s*)?(?:status ([A-Z][A-Z_]+)(?:, reason ([A-Z][A-Z_0-9]+))?)?/
const STATUS_FRAGMENT = /"status":\{"value":"([A-Z_]+)"(?:,[^}]*?"reason":"([A-Z_0-9]+)")?/

/** a printed `"key":value` with a plain value (string, number, boolean, null) */
const PAIR = /"([^"\\]+)":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)(?=[,}\]\s]|$)/g

/** a comment that prints (a part of) the answer: `# {…`, `# [{…`, `# 400 {…` */
const ANSWER_COMMENT = /^#\s+(?:[1-5]\d\d\s+)?[{[]/

function annotate(c: ExampleCommand, comment: string): void {
  for (const [, key, text] of ANSWER_COMMENT.test(comment) || c.pairs ? comment.matchAll(PAIR) : []) {
    const value: unknown = JSON.parse(text)
    // abbreviated, or a value that differs run to run (a date-time, a UUID)
    if (typeof value === 'string' && (value.includes('…') || DATE_TIME.test(value) || UUID_ONLY.test(value))) continue
    ;(c.pairs ??= []).push({ key, value })
  }
  const m = STATUS_LINE.exec(comment)
  if (m?.[1] && c.httpStatus === undefined) c.httpStatus = Number(m[1])
  if (m?.[2] && c.statusValue === undefined) {
    c.statusValue = m[2]
    if (m[3]) c.statusReason = m[3]
    return
  }
  const f = STATUS_FRAGMENT.exec(comment)
  if (f && c.statusValue === undefined) {
    c.statusValue = f[1]
    if (f[2]) c.statusReason = f[2]
  }
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?[+-]\d{2}:\d{2}$/
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g
const UUID_ONLY = new RegExp(`^${UUID.source}$`)

/** whether `key` holds `value` anywhere in the answer (at any depth) */
export function holdsPair(answer: unknown, key: string, value: unknown): boolean {
  if (Array.isArray(answer)) return answer.some((a) => holdsPair(a, key, value))
  if (answer === null || typeof answer !== 'object') return false
  return Object.entries(answer).some(([k, v]) => (k === key && v === value) || holdsPair(v, key, value))
}

/**
 * Where the answer differs from the one printed (empty: it is as printed). The keys must be the same;
 * a printed string with `…` stands for any string that begins (and ends) as printed; a printed
 * date-time for any date-time written the same way (with or without milliseconds); a printed UUID for
 * any UUID; everything else must be equal.
 */
export function differences(actual: unknown, shown: unknown, at = ''): string[] {
  const here = at || 'the answer'
  if (typeof shown === 'string') {
    if (typeof actual !== 'string') return [`${here}: ${JSON.stringify(actual)} is not a string`]
    if (shown.includes('…')) {
      const [head, tail] = [shown.slice(0, shown.indexOf('…')), shown.slice(shown.lastIndexOf('…') + 1)]
      return actual.startsWith(head) && actual.endsWith(tail) && actual.length >= head.length + tail.length
        ? []
        : [`${here}: ${JSON.stringify(actual)} is not ${JSON.stringify(shown)}`]
    }
    if (DATE_TIME.test(shown)) {
      const sameShape =
        DATE_TIME.test(actual) && shown.includes('.') === actual.includes('.') && shown.slice(-6) === actual.slice(-6)
      return sameShape
        ? []
        : [`${here}: ${JSON.stringify(actual)} is not a date-time written like ${JSON.stringify(shown)}`]
    }
    const pattern = shown.replace(UUID, '\u0000')
    if (pattern.includes('\u0000'))
      return actual.replace(UUID, '\u0000') === pattern
        ? []
        : [`${here}: ${JSON.stringify(actual)} is not ${JSON.stringify(shown)}`]
    return actual === shown ? [] : [`${here}: ${JSON.stringify(actual)} is not ${JSON.stringify(shown)}`]
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual) || actual.length !== shown.length)
      return [`${here}: ${JSON.stringify(actual)} is not ${JSON.stringify(shown)}`]
    return shown.flatMap((s, k) => differences(actual[k], s, `${at}[${k}]`))
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
      return [`${here}: ${JSON.stringify(actual)} is not an object`]
    const a = actual as Record<string, unknown>
    const s = shown as Record<string, unknown>
    const missing = Object.keys(s)
      .filter((k) => !(k in a))
      .map((k) => `${at ? `${at}.` : ''}${k}: printed, not answered`)
    const extra = Object.keys(a)
      .filter((k) => !(k in s))
      .map((k) => `${at ? `${at}.` : ''}${k}: answered, not printed`)
    return [
      ...missing,
      ...extra,
      ...Object.keys(s)
        .filter((k) => k in a)
        .flatMap((k) => differences(a[k], s[k], at ? `${at}.${k}` : k)),
    ]
  }
  return actual === shown ? [] : [`${here}: ${JSON.stringify(actual)} is not ${JSON.stringify(shown)}`]
}

export interface Ran {
  exitCode: number
  stdout: string
  httpStatuses: number[]
}

/** runs the commands in one bash session (variables carry over), each one's output and curl statuses kept apart */
export async function runInBash(commands: ExampleCommand[], env: Record<string, string>): Promise<Ran[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payin-readme-'))
  try {
    const script = [
      // every curl request's status, written to the command's own stderr file
      `curl() { command curl --max-time 60 -w '%{stderr}\\n@@HTTP %{http_code}\\n' "$@"; }`,
      ...commands.flatMap((c, i) => [
        `printf '\\n@@BEGIN ${i}\\n'`,
        '{',
        c.text,
        `} 2>"${dir}/err.${i}"`,
        `printf '\\n@@END ${i} %d\\n' $?`,
      ]),
    ].join('\n')
    fs.writeFileSync(path.join(dir, 'readme.sh'), script)
    const { stdout } = await promisify(execFile)('bash', [path.join(dir, 'readme.sh')], {
      // a newcomer's shell: none of the suite's settings, only where the commands reach the database
      env: {
        PATH: process.env.PATH!,
        HOME: process.env.HOME ?? os.tmpdir(),
        LANG: 'C.UTF-8',
        ...env,
      } as unknown as NodeJS.ProcessEnv,
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
      timeout: 10 * 60_000,
    })
    return commands.map((_, i) => {
      const m = new RegExp(`\\n@@BEGIN ${i}\\n([\\s\\S]*?)\\n@@END ${i} (\\d+)\\n`).exec(stdout)
      assert.ok(m, `command ${i} did not run:\n${stdout.slice(-2000)}`)
      const err = fs.readFileSync(path.join(dir, `err.${i}`), 'utf8')
      return {
        stdout: m[1],
        exitCode: Number(m[2]),
        httpStatuses: [...err.matchAll(/^@@HTTP (\d{3})$/gm)].map((s) => Number(s[1])),
      }
    })
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** what differs between the commands of a page as printed and as they ran: one message each, empty when none */
export function problemsOf(file: string, commands: ExampleCommand[], ran: Ran[]): string[] {
  const problems: string[] = []
  commands.forEach((c, i) => {
    const r = ran[i]
    const where = `${file} line ${c.line}: ${c.text.split('\n')[0].slice(0, 100)}`
    const say = (what: string) => problems.push(`${where}\n  ${what}\n  output: ${r.stdout.slice(0, 600)}`)
    if (r.exitCode !== 0) say(`exit code ${r.exitCode}`)
    for (const status of r.httpStatuses) {
      if (c.httpStatus !== undefined ? status !== c.httpStatus : status < 200 || status > 299)
        say(`HTTP ${status}, the page says ${c.httpStatus ?? '2xx'}`)
    }
    if (c.statusValue === undefined && !c.shown && !c.pairs) return
    let answer: any
    try {
      answer = JSON.parse(r.stdout)
    } catch {
      return say('the answer is not JSON')
    }
    if (c.statusValue !== undefined && answer?.status?.value !== c.statusValue)
      say(`status ${answer?.status?.value}, the page says ${c.statusValue}`)
    if (c.statusReason !== undefined && answer?.status?.reason !== c.statusReason)
      say(`reason ${answer?.status?.reason}, the page says ${c.statusReason}`)
    if (c.shown) for (const d of differences(answer, c.shown.json)) say(`as printed at line ${c.shown.line}: ${d}`)
    for (const p of c.pairs ?? [])
      if (!holdsPair(answer, p.key, p.value))
        say(`its comment prints "${p.key}":${JSON.stringify(p.value)}, not in the answer`)
  })
  return problems
}
