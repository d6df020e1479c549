// The scale bench's fill (issue 32): a year of a site's traffic written by set-based SQL in minutes. The rows are
// the service's own: each kind of payment (its bill, captures, refunds, notifications and dashboard audit entries)
// is first made once through the API and the dashboard on a template site, then copied by INSERT … SELECT over a
// plan of generate_series, every column as the template has it but for what tells one copy from another: ids
// (every uuid, in a uuid column or in text, derived from the copy's number and the template's uuid, so references
// between rows still hold),
// merchant ids (the template's `KSEQnn` becomes the copy's number), dates (shifted by the copy's age, in the
// notification bodies too), the card's last four digits (approved cards only: any Luhn-valid number is approved
// frictionless, so any last four occur) and the delivery history (attempts as the worker writes them).
import { randomUUID } from 'node:crypto'
import type pg from 'pg'

/**
 * A kind of traffic: how many copies at full scale, and how one is made through the service (`make` gets the
 * template's ids, with `KSEQ` and the kind's number in them).
 */
interface Kind {
  name: string
  copies: number
  /** the approved card's last four vary per copy */
  varyPan?: boolean
  make: (t: TemplateApi, ids: { pay: string; bill: string; act: string }) => Promise<void>
}

/** what a template is made with: the API as the site, and the dashboard as its signed-in merchant */
export interface TemplateApi {
  put: (path: string, body: unknown) => Promise<{ status: number; body: Record<string, unknown> }>
  dashboard: (path: string, body: unknown) => Promise<{ status: number; body: Record<string, unknown> }>
}

const card = (pan: string, value: string, sale = true, billId?: string) => ({
  paymentMethod: { type: 'CARD', pan, expiryDate: '12/30', cvv2: '123', holderName: 'IVAN PETROV' },
  amount: { value, currency: 'RUB' },
  ...(sale ? { flags: ['SALE'] } : {}),
  ...(billId ? { billId } : {}),
  customer: { account: 'client-42', email: 'buyer@example.com' },
})
const bill = (value: string, days: number) => ({
  amount: { value, currency: 'RUB' },
  comment: 'Order from the shop',
  expirationDateTime: new Date(Date.now() + days * 86400_000).toISOString(),
  customer: { account: 'client-42', email: 'buyer@example.com' },
})

/**
 * The mix of a year (counts at BENCH_SCALE=1): 1,000,000 payments (80% made without a bill, each with its implicit
 * bill), 200,000 bills made by the API, 10% of payments captured or refunded through the dashboard (one audit entry
 * each: 100,000), one notification per final status (≈1,100,000).
 */
export const KINDS: Kind[] = [
  {
    name: 'Visa one-step',
    copies: 320_000,
    varyPan: true,
    make: (t, i) => t.put(`/payments/${i.pay}`, card('4111111111111111', '100.00')).then(() => {}),
  },
  {
    name: 'Mastercard one-step',
    copies: 170_000,
    varyPan: true,
    make: (t, i) => t.put(`/payments/${i.pay}`, card('5555555555554444', '1490.00')).then(() => {}),
  },
  {
    name: 'MIR one-step',
    copies: 120_000,
    varyPan: true,
    make: (t, i) => t.put(`/payments/${i.pay}`, card('2200000000000004', '25.50')).then(() => {}),
  },
  {
    name: 'declined',
    copies: 50_000,
    make: (t, i) => t.put(`/payments/${i.pay}`, card('4000000000000002', '300.00')).then(() => {}),
  },
  {
    name: 'declined, insufficient funds',
    copies: 40_000,
    make: (t, i) => t.put(`/payments/${i.pay}`, card('4000000000009995', '4999.00')).then(() => {}),
  },
  {
    name: 'two-step, captured in the dashboard',
    copies: 70_000,
    varyPan: true,
    make: async (t, i) => {
      await t.put(`/payments/${i.pay}`, card('4111111111111111', '2500.00', false))
      await t.dashboard(`/payments/${i.pay}/capture`, { amount: '2500.00', key: i.act })
    },
  },
  {
    name: 'one-step, partly refunded in the dashboard',
    copies: 30_000,
    varyPan: true,
    make: async (t, i) => {
      await t.put(`/payments/${i.pay}`, card('5555555555554444', '800.00'))
      await t.dashboard(`/payments/${i.pay}/refund`, { amount: '200.00', key: i.act })
    },
  },
  {
    name: 'bill paid by card',
    copies: 180_000,
    varyPan: true,
    make: async (t, i) => {
      await t.put(`/bills/${i.bill}`, bill('1490.00', 10))
      await t.put(`/payments/${i.pay}`, card('4111111111111111', '1490.00', true, i.bill))
    },
  },
  {
    name: 'bill paid after a decline',
    copies: 10_000,
    make: async (t, i) => {
      await t.put(`/bills/${i.bill}`, bill('990.00', 10))
      await t.put(`/payments/${i.pay}-1`, card('4000000000009995', '990.00', true, i.bill))
      await t.put(`/payments/${i.pay}`, card('2200000000000004', '990.00', true, i.bill))
    },
  },
  {
    name: 'bill left unpaid (expired)',
    copies: 10_000,
    make: (t, i) => t.put(`/bills/${i.bill}`, bill('5000.00', 3)).then(() => {}),
  },
]

/** the kind the scheduler's drain copies: a 3-D Secure payment waiting for its payer (its expiry is due) */
export const DUE_KIND: Kind = {
  name: '3-D Secure, waiting',
  copies: 0,
  make: (t, i) => t.put(`/payments/${i.pay}`, card('4000000000003220', '700.00')).then(() => {}),
}

const idsOf = (g: number) => {
  const tag = `KSEQ${String(g).padStart(2, '0')}`
  return { pay: `pay-${tag}`, bill: `bill-${tag}`, act: randomUUID() }
}

/** makes one template of each kind on the template site (its notifyUrl set, the delivery worker off) */
export async function makeTemplates(t: TemplateApi): Promise<void> {
  for (const [g, k] of [...KINDS, DUE_KIND].entries()) await k.make(t, idsOf(g))
}

/** a table's columns, in order, with their types */
async function columns(db: pg.Client, table: string): Promise<{ name: string; type: string }[]> {
  const { rows } = await db.query(
    `SELECT column_name AS name, data_type AS type FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  )
  return rows
}

const q = (s: string) => `'${s.replace(/'/g, "''")}'`
/** a date-time as the API writes it (lib/time/wire-time.ts, the service's time zone UTC), shifted by x.shift */
const wireTime = (literal: string, millis: boolean) =>
  `to_char((${q(literal)}::timestamptz + x.shift) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS${millis ? '.MS' : ''}') || '+00:00'`
const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g
const DATE_IN_TEXT = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?\+00:00/g

export interface Fill {
  payments: number
  bills: number
  captures: number
  refunds: number
  notifications: number
  attempts: number
  audit: number
  seconds: number
}

/**
 * Copies the template site's rows into `siteId`: `count(kind)` copies of each kind (numbered from `from`), aged over
 * a year (recent traffic denser: the age is a year × (1 − √u)); `only`: the kinds to copy (their index in KINDS, or
 * DUE_KIND as -1) and `override`: per table, column expressions replacing the template's (x is the copy's plan row,
 * t the template's row), as the drains need them. Answers the rows written.
 */
export async function copyTemplates(
  db: pg.Client,
  o: {
    templateSite: string
    siteId: string
    count: (k: Kind, g: number) => number
    from?: number
    /** the copies' age: a SQL interval expression of `u` (uniform in [0, 1)) */
    age?: string
    kinds?: number[]
    override?: Partial<Record<string, Record<string, string>>>
    log?: (l: string) => void
    /**
     * a bulk load: the tables' secondary indexes (not their primary keys) dropped before and built again after, as
     * they were (a build sorts once, where a million inserts each descend every index)
     */
    bulk?: boolean
  },
): Promise<Fill> {
  const started = performance.now()
  const all = [...KINDS, DUE_KIND]
  const chosen = o.kinds ?? KINDS.map((_, g) => g)
  const age = o.age ?? `interval '365 days' * (1 - sqrt(u))`
  // the templates of each kind: the payments and bills whose merchant id carries its tag
  await db.query('DROP TABLE IF EXISTS scale_plan, scale_kind')
  await db.query(`CREATE TEMP TABLE scale_kind (g int, tag text, anchor timestamptz, pan text, bill_ref uuid)`)
  for (const g of chosen) {
    const tag = `KSEQ${String(g).padStart(2, '0')}`
    const { rows } = await db.query(
      `SELECT b.id AS bill_ref, b."createdAt" AS anchor,
         (SELECT p."maskedPan" FROM "Payment" p WHERE p."billRef" = b.id AND p.status = 'COMPLETED' LIMIT 1) AS pan
       FROM "Bill" b WHERE b."siteId" = $1 AND (b."billId" = $2
         OR b.id IN (SELECT "billRef" FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $3))`,
      [o.templateSite, `bill-${tag}`, `pay-${tag}`],
    )
    if (rows.length !== 1) throw new Error(`template of ${all[g].name}: ${rows.length} bills`)
    await db.query('INSERT INTO scale_kind VALUES ($1, $2, $3, $4, $5)', [
      g,
      tag,
      rows[0].anchor,
      all[g].varyPan ? rows[0].pan : null,
      rows[0].bill_ref,
    ])
  }
  // the plan: one row per copy, its number k (unique in the site), its age and card's last four; the age shifts every
  // date by whole seconds, so that the texts' dates without a fraction (notifications') shift exactly as the columns
  let from = o.from ?? 1
  const series: string[] = []
  for (const g of chosen) {
    const n = o.count(all[g], g)
    if (n > 0) series.push(`SELECT ${g} AS g, ${from} + i AS k FROM generate_series(0, ${n - 1}) i`)
    from += n
  }
  await db.query(`CREATE TEMP TABLE scale_plan AS
    SELECT s.g, s.k, lpad(s.k::text, greatest(7, length(s.k::text)), '0') AS kstr, c.anchor, c.pan, c.tag, c.bill_ref,
      date_trunc('second', now() - ${age} - c.anchor) AS shift, lpad((floor(random() * 10000))::int::text, 4, '0') AS last4
    FROM (${series.join(' UNION ALL ')}) s JOIN scale_kind c ON c.g = s.g,
      -- correlated with the row (s.k), so that PostgreSQL draws u for each copy, not once for them all
      LATERAL (SELECT random() + 0 * s.k AS u) r`)
  await db.query('CREATE INDEX ON scale_plan (g)')
  await db.query('ANALYZE scale_plan')

  // the template rows of each table, by kind
  const site = q(o.siteId)
  const tplRows: Record<string, string> = {
    Bill: `SELECT c.g, t.* FROM "Bill" t JOIN scale_kind c ON t.id = c.bill_ref`,
    Payment: `SELECT c.g, t.* FROM "Payment" t JOIN scale_kind c ON t."billRef" = c.bill_ref`,
    Capture: `SELECT c.g, t.* FROM "Capture" t JOIN "Payment" p ON p.id = t."paymentRef" JOIN scale_kind c ON p."billRef" = c.bill_ref`,
    Refund: `SELECT c.g, t.* FROM "Refund" t JOIN "Payment" p ON p.id = t."paymentRef" JOIN scale_kind c ON p."billRef" = c.bill_ref`,
    Notification: `SELECT c.g, t.* FROM "Notification" t JOIN scale_kind c ON t."resourceRef" IN (
      SELECT p.id FROM "Payment" p WHERE p."billRef" = c.bill_ref
      UNION ALL SELECT x.id FROM "Capture" x JOIN "Payment" p ON p.id = x."paymentRef" WHERE p."billRef" = c.bill_ref
      UNION ALL SELECT x.id FROM "Refund" x JOIN "Payment" p ON p.id = x."paymentRef" WHERE p."billRef" = c.bill_ref)`,
    AuditEntry: `SELECT c.g, t.* FROM "AuditEntry" t JOIN scale_kind c ON t."paymentRef" IN (
      SELECT p.id FROM "Payment" p WHERE p."billRef" = c.bill_ref)`,
  }
  const indexes: { indexname: string; indexdef: string }[] = []
  if (o.bulk) {
    const { rows } = await db.query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()
         AND tablename = ANY($1::text[]) AND indexname NOT IN (SELECT conname FROM pg_constraint)`,
      [[...Object.keys(tplRows), 'NotificationAttempt']],
    )
    indexes.push(...rows)
    for (const i of indexes) await db.query(`DROP INDEX "${i.indexname}"`)
  }
  const fill: Fill = {
    payments: 0,
    bills: 0,
    captures: 0,
    refunds: 0,
    notifications: 0,
    attempts: 0,
    audit: 0,
    seconds: 0,
  }
  for (const table of ['Bill', 'Payment', 'Capture', 'Refund', 'Notification', 'AuditEntry']) {
    const cols = await columns(db, table)
    // the dates the templates' texts hold (notification bodies), each replaced by the copy's
    const { rows: texts } = await db.query(
      `SELECT string_agg(${cols
        .filter((c) => c.type === 'text' || c.type === 'jsonb')
        .map((c) => `coalesce(t."${c.name}"::text, '')`)
        .join(" || ' ' || ")}, ' ') AS all FROM (${tplRows[table]}) t`,
    )
    const all = String(texts[0]?.all ?? '')
    const dates = [...new Set(all.match(DATE_IN_TEXT) ?? [])]
    // the uuids they hold (an implicit bill's id, a dashboard capture's key): each copy's own, as its uuid columns
    const uuids = [...new Set(all.match(UUID_IN_TEXT) ?? [])]
    const rewrite = (e: string) => {
      let out = `replace(regexp_replace(${e}, 'KSEQ\\d\\d', x.kstr, 'g'), ${q(o.templateSite)}, ${site})`
      for (const u of uuids) out = `replace(${out}, ${q(u)}, md5(${site} || ':' || x.k || ':' || ${q(u)})::uuid::text)`
      out = `CASE WHEN x.pan IS NULL THEN ${out} ELSE replace(${out}, x.pan, left(x.pan, -4) || x.last4) END`
      for (const d of dates) out = `replace(${out}, ${q(d)}, ${wireTime(d, d.includes('.'))})`
      return out
    }
    const own = o.override?.[table] ?? {}
    const exprs = cols.map((c) => {
      if (own[c.name]) return own[c.name]
      const v = `t."${c.name}"`
      if (c.name === 'siteId') return site
      if (c.type === 'uuid') return `md5(${site} || ':' || x.k || ':' || ${v})::uuid`
      if (c.type.startsWith('timestamp')) return `${v} + x.shift`
      if (c.name === 'fingerprint') return `encode(sha256(convert_to(${v} || x.k, 'UTF8')), 'hex')`
      if (c.type === 'text') return rewrite(v)
      if (c.type === 'jsonb') return `(${rewrite(`${v}::text`)})::jsonb`
      return v
    })
    // what the service would have written since: old unpaid bills expired (the scheduler's statement dates it at the
    // deadline), notifications delivered (or failed after every retry) with their attempts
    const patch: Record<string, Record<string, string>> = {
      Bill: {
        status: `CASE WHEN t.status = 'CREATED' AND t."expiresAt" + x.shift <= now() THEN 'EXPIRED' ELSE t.status END`,
        statusChangedAt: `CASE WHEN t.status = 'CREATED' AND t."expiresAt" + x.shift <= now() THEN t."expiresAt" + x.shift ELSE t."statusChangedAt" + x.shift END`,
      },
      Notification: {
        state: `CASE WHEN x.k % 100 = 99 THEN 'FAILED' ELSE 'DELIVERED' END`,
        attempts: `CASE WHEN x.k % 100 = 99 THEN 6 WHEN x.k % 100 >= 95 THEN 2 ELSE 1 END`,
        nextAttemptAt: `t."nextAttemptAt" + x.shift + CASE WHEN x.k % 100 = 99 THEN interval '965 seconds' WHEN x.k % 100 >= 95 THEN interval '5 seconds' ELSE interval '0' END`,
        deliveredAt: `CASE WHEN x.k % 100 = 99 THEN NULL ELSE t."createdAt" + x.shift + interval '80 milliseconds' + CASE WHEN x.k % 100 >= 95 THEN interval '5 seconds' ELSE interval '0' END END`,
        leaseUntil: 'NULL',
      },
    }
    for (const [name, e] of Object.entries(patch[table] ?? {})) {
      const i = cols.findIndex((c) => c.name === name)
      if (i >= 0 && !own[name]) exprs[i] = e
    }
    const t0 = performance.now()
    // written oldest first, as a site's year of traffic was: the table's pages then hold its rows in time order, as a
    // real site's do (a sandbox reset's batches, taken in that order, each cover a stretch of time; rows written in a
    // random order would put each batch's rows on pages all over the table and in thousands of hours of the figures)
    const insert = `INSERT INTO "${table}" (${cols.map((c) => `"${c.name}"`).join(', ')})
       SELECT ${exprs.join(',\n')} FROM scale_plan x JOIN (${tplRows[table]}) t ON t.g = x.g ORDER BY x.shift, x.k`
    // each copied notification's attempts, in the same statement: the failed ones (the receiver answered 500) 5 s,
    // 1 min, then 5 min apart, the last one 200 unless it FAILED
    const withAttempts = table === 'Notification' && !o.override?.Notification
    const r = withAttempts
      ? await db.query(
          `WITH n AS (${insert} RETURNING id, "createdAt", attempts, state),
           a AS (INSERT INTO "NotificationAttempt" (id, "notificationRef", at, "httpStatus", "durationMs", error)
             SELECT md5(n.id::text || ':' || i)::uuid, n.id,
               n."createdAt" + (ARRAY[0, 5, 65, 365, 665, 965])[i] * interval '1 second' + interval '60 milliseconds',
               CASE WHEN i = n.attempts AND n.state = 'DELIVERED' THEN 200 ELSE 500 END,
               20 + (hashtext(n.id::text || i) & 255), NULL
             FROM n, generate_series(1, n.attempts) i RETURNING 1)
           SELECT (SELECT count(*) FROM n)::int AS rows, (SELECT count(*) FROM a)::int AS attempts`,
        )
      : await db.query(insert)
    const n = withAttempts ? Number(r.rows[0].rows) : (r.rowCount ?? 0)
    if (withAttempts) fill.attempts = Number(r.rows[0].attempts)
    o.log?.(
      `${table}: ${n} rows${withAttempts ? ` and ${fill.attempts} attempts` : ''} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    )
    if (table === 'Bill') fill.bills = n
    if (table === 'Payment') fill.payments = n
    if (table === 'Capture') fill.captures = n
    if (table === 'Refund') fill.refunds = n
    if (table === 'AuditEntry') fill.audit = n
    if (table === 'Notification') fill.notifications = n
  }
  await db.query('DROP TABLE scale_plan, scale_kind')
  if (indexes.length) {
    const t = performance.now()
    await db.query(`SET maintenance_work_mem = '512MB'`)
    for (const i of indexes) await db.query(i.indexdef)
    o.log?.(`${indexes.length} indexes built again in ${((performance.now() - t) / 1000).toFixed(1)} s`)
  }
  fill.seconds = (performance.now() - started) / 1000
  return fill
}

/** the index of the scheduler drain's kind for copyTemplates' `kinds` */
export const DUE_KIND_INDEX = KINDS.length
