// A write of a site's data goes through lib/sandbox/site-write.ts (issue 27): the module that opens the
// transaction, retries it, takes the site's gate (the advisory lock a sandbox reset waits on) and reads the
// clock after it. This scan of lib/ fails when a module opens a transaction of its own, takes an advisory
// lock or a share lock on the site's row, or calls the clock readers that the gate replaced, outside the
// places listed here with the reason each is not a write of one site's data.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

const LIB = new URL('../../lib/', import.meta.url).pathname

/** the TypeScript files of lib/, generated code aside, as paths from the repository's root */
function libFiles(dir = LIB): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name)
    if (e.isDirectory()) return e.name === 'generated' ? [] : libFiles(full)
    return /\.tsx?$/.test(e.name) ? [path.relative(path.join(LIB, '..'), full)] : []
  })
}

/** the code of a file without its comments (a comment may name what the code must not do) */
const code = (file: string) =>
  fs
    .readFileSync(path.join(LIB, '..', file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')

/** how often `pattern` occurs in each file of lib/ that has it */
function occurrences(pattern: RegExp): Record<string, number> {
  const found: Record<string, number> = {}
  for (const file of libFiles()) {
    const n = code(file).match(new RegExp(pattern.source, 'g'))?.length ?? 0
    if (n) found[file] = n
  }
  return found
}

test('transactions are opened by the site-write module, and by the few modules that write no site data', () => {
  assert.deepEqual(occurrences(/\$transaction\s*[(<]/), {
    // siteWrite, siteClockMove (reset, advance) and the scheduler's pickedSiteWrite
    'lib/sandbox/site-write.ts': 3,
    // the lease of due notifications of every site, under the claim lock (it dates nothing, and a reset
    // waits for the leased rows)
    'lib/notifications/notification-store.ts': 1,
    // the read of a bill with its payments as of one snapshot (read only)
    'lib/settlement/bill-store.ts': 1,
    // the revocation of a site's token, under the site's row lock (tokens are not data a reset deletes)
    'lib/sites/site-store.ts': 1,
    // the fold of the overview's counted changes of every site (figures derived from rows, dated nothing; a reset's
    // deletes write their own changes, so it need not wait behind the gate)
    'lib/db/hour-stats.ts': 1,
  })
})

test("the site's gate is taken only by the site-write module", () => {
  assert.deepEqual(occurrences(/pg_(try_)?advisory_(xact_)?lock(_shared)?\s*\(/), {
    // shared by writes (waiting, and without waiting for statements and the scheduler), exclusive by what
    // moves the clock
    'lib/sandbox/site-write.ts': 4,
    // the claim lock of the notification workers (a bigint key: another lock space than the gate's)
    'lib/notifications/notification-store.ts': 1,
    // the migration lock (session-level, a bigint key)
    'lib/db/migrations.ts': 1,
  })
  assert.deepEqual(occurrences(/SITE_GATE/), { 'lib/sandbox/site-write.ts': 2 })
})

test("no share lock on the site's row, and none of the clock readers the gate replaced", () => {
  assert.deepEqual(occurrences(/FOR (KEY |NO KEY )?SHARE/i), {})
  assert.deepEqual(occurrences(/\b(siteClockForWrite|siteClockHeld|siteWriteLock|lockedClock)\b/), {})
})
