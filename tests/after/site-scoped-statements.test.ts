// Runs after the suite: every statement the service sent during it (each process's distinct texts, recorded by
// lib/db/statement-log.ts under STATEMENT_LOG_DIR) that touches a site's data either names the site ("siteId"), or
// finds its rows by a key that belongs to one site (a row's own id, or its parent's: billRef, paymentRef,
// notificationRef, qrRef, seriesRef), or writes a row of the values given, or is one of the few statements listed
// below that read across sites on purpose, each with its reason. A new statement that reads across sites fails here
// until it names the site or is listed: the rule that lets the data be sharded by siteId (docs/design/scaling.md).
// The service tests' own fixtures are not recorded (scripts/run-tests.ts).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { STATEMENT_LOG_FULL } from '../../lib/db/statement-log.ts'

/** the tables that hold a site's data: every model with a siteId, and the attempts of its notifications */
function siteTables(): string[] {
  const schema = fs.readFileSync('prisma/schema.prisma', 'utf8')
  const tables = [...schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)]
    .filter(([, , body]) => /^\s+siteId\s/m.test(body))
    .map(([, name]) => name)
  return [...tables, 'NotificationAttempt']
}

/** a condition on the site: its id equal to a parameter (or in a list of them) */
const BY_SITE = /"siteId"\s*(?:=\s*\$\d+|IN\s*\(\$\d+|=\s*ANY\s*\(\$\d+)/

/**
 * a condition on a key of one site's row: its own id or its parent's, equal to a parameter (or in a list of them, as
 * the batches of a reset or a retention sweep give the keys they found through the site)
 */
const BY_KEY =
  /(?:^|[\s(."])"?(?:id|billRef|paymentRef|notificationRef|qrRef|seriesRef)"?\s*(?:=\s*\$\d+|=\s*ANY\s*\(\$\d+|IN\s*\((?:\$\d+|NULL))/

/** the statements that read across sites on purpose: what each does, and why it may */
const ACROSS_SITES: { what: string; match: RegExp; why: string }[] = [
  {
    what: "a bill's page by its invoiceUid",
    match: /"invoiceUid" = \$\d+/,
    why: "the payer's address names no site; invoiceUid is unique across all sites (a directory of invoiceUid → siteId when sharded)",
  },
  {
    what: "an SBP QR code's page by its publicId",
    match: /"publicId" = \$\d+/,
    why: "the payer's bank app opens an address that names no site; publicId is unique across all sites (a directory when sharded)",
  },
  {
    what: 'an API token, payment token or dashboard session by its hash',
    match: /"(?:tokenHash|idHash)" = \$\d+/,
    why: 'the credential itself tells whose it is: its hash is unique across sites, and the site is read from the row found',
  },
  {
    what: 'the notification worker claiming due notifications',
    match: /FROM "(?:public"\.")?Notification"[\s\S]*"nextAttemptAt" <=/,
    why: 'one worker serves every site, oldest first (a worker per shard when sharded)',
  },
  {
    what: "the scheduler's sweeps of due changes, holds and expiries",
    match: /pg_try_advisory_xact_lock_shared\(\$\d+::int4, hashtext\(\w+\."siteId"::text\)\)/,
    why: 'time-driven changes of every site are applied by whichever instance runs the scheduler, each row under its site’s gate (per shard when sharded)',
  },
  {
    what: "the notifications of a scheduler's batch of declines",
    match: /^\s*INSERT INTO "Notification" [^]*FROM unnest\(\$1::text\[\]/,
    why: "a batch spans sites: its payments were taken behind their sites' gates and declined by their ids (lib/payments/payment-lifecycle.ts declineDue); each notification is written to its own payment's site, with that site's URL and clock",
  },
  {
    what: "the scheduler folding the overview's counted changes",
    match:
      /FROM "(?:Payment|Notification)StatChange" ORDER BY id LIMIT|DELETE FROM "(?:Payment|Notification)Stat" s USING json_array_elements/,
    why: "every site's changes are folded oldest first by whichever instance runs the scheduler (per shard when sharded); the rows a fold emptied are then named by their whole keys, siteId included, from its answer",
  },
  {
    what: 'metrics of the whole service',
    // the metrics' reads run on a probe connection: one statement led by its own timeout (lib/db/client.ts probeQuery)
    match: /^SET LOCAL statement_timeout = \d+;/,
    why: "an operator's figures, over all sites by design",
  },
]

function recorded(): string[] {
  const dir = process.env.STATEMENT_LOG_DIR
  assert.ok(dir && fs.existsSync(dir), 'STATEMENT_LOG_DIR names the folder the run recorded statements in')
  const texts = new Set<string>()
  for (const f of fs.readdirSync(dir))
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n'))
      if (line) texts.add(JSON.parse(line) as string)
  // a process that sent more distinct texts than the recording keeps: the check would not see them all
  assert.ok(!texts.has(STATEMENT_LOG_FULL), 'a process sent more distinct statements than were recorded')
  return [...texts]
}

test("every statement on a site's data names the site, finds it by a site's key, or is a listed exception", () => {
  const tables = siteTables()
  assert.ok(tables.includes('Payment') && tables.includes('Bill'), 'the schema was read')
  const mention = new RegExp(`"(${tables.join('|')})"`)
  const texts = recorded()
  const onSiteData = texts.filter((t) => mention.test(t) && !/^\s*(CREATE|ALTER|DROP|COMMENT)\b/i.test(t))
  // the suite sends hundreds of distinct statements on sites' data: a recording that failed is not a pass
  assert.ok(onSiteData.length >= 100, `only ${onSiteData.length} statements on sites' data were recorded`)
  const used = new Set<string>()
  const unexplained = onSiteData.filter((t) => {
    // a row written with the values given reads nothing (its parent was found through the site)
    if (/^\s*INSERT\b[^]*?\bVALUES\b/i.test(t) && !/\bSELECT\b/i.test(t.replace(/\bRETURNING\b[^]*$/i, '')))
      return false
    if (BY_SITE.test(t) || BY_KEY.test(t)) return false
    const listed = ACROSS_SITES.find((a) => a.match.test(t))
    if (listed) used.add(listed.what)
    return !listed
  })
  assert.deepEqual(
    unexplained.map((t) => t.replace(/\s+/g, ' ').trim()),
    [],
    'statements on sites’ data that name no site and find no row by its key',
  )
  // every exception is still needed: one no statement uses any more is taken off the list
  assert.deepEqual(
    ACROSS_SITES.map((a) => a.what).filter((w) => !used.has(w)),
    [],
    'listed exceptions no statement needs',
  )
})
