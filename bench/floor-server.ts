// The floor of the benchmark: a minimal node:http server doing the same database work as the service
// for each scenario, with `pg` directly and nothing else (no auth, no validation, no framework). What
// the service reaches is reported as a ratio to this.
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import pg from 'pg'

/** the fields of the benchmark's request bodies that the floor reads (a payment's, a capture's, a bill's) */
interface RequestBody {
  amount: { value: string; currency: string }
  flags?: string[]
  expirationDateTime: string
}

export function startFloor(databaseUrl: string, port: number, poolSize: number): Promise<http.Server> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize })
  const body = (req: http.IncomingMessage) =>
    new Promise<RequestBody>((resolve) => {
      let text = ''
      req.on('data', (c) => (text += c))
      req.on('end', () => resolve(text ? JSON.parse(text) : {}))
    })
  const send = (res: http.ServerResponse, status: number, payload: unknown, type = 'application/json') => {
    res.writeHead(status, { 'Content-Type': type })
    res.end(type === 'application/json' ? JSON.stringify(payload) : String(payload))
  }

  async function tx<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await pool.connect()
    try {
      await c.query('BEGIN')
      const r = await work(c)
      await c.query('COMMIT')
      return r
    } catch (e) {
      await c.query('ROLLBACK')
      throw e
    } finally {
      c.release()
    }
  }

  const server = http.createServer(async (req, res) => {
    const parts = new URL(req.url!, 'http://x').pathname.split('/').filter(Boolean)
    try {
      // PUT /sites/:site/payments/:id — a one-step approved card payment: its bill and the payment
      if (req.method === 'PUT' && parts[2] === 'payments' && parts.length === 4) {
        const b = await body(req)
        const minor = Math.round(Number(b.amount.value) * 100)
        const row = await tx(async (c) => {
          const bill = randomUUID()
          await c.query(
            `INSERT INTO "Bill" (id, "siteId", "billId", "invoiceUid", currency, "amountMinor", flags, status, "statusChangedAt", "createdAt", "expiresAt")
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'PAID', now(), now(), now() + interval '45 days')`,
            [bill, parts[1], randomUUID(), randomUUID(), b.amount.currency, minor, b.flags],
          )
          const r = await c.query(
            `INSERT INTO "Payment" (id, "siteId", "paymentId", "billRef", "billId", fingerprint, "methodType", "maskedPan", flags, currency, "amountMinor", "capturedMinor", status, "statusChangedAt", "createdAt")
             VALUES ($1, $2, $3, $4, $5, 'floor', 'CARD', '411111******1111', $6, $7, $8, $8, 'COMPLETED', now(), now()) RETURNING *`,
            [randomUUID(), parts[1], parts[3], bill, bill, b.flags, b.amount.currency, minor],
          )
          return r.rows[0]
        })
        return send(res, 200, row)
      }
      // GET /sites/:site/payments/:id
      if (req.method === 'GET' && parts[2] === 'payments' && parts.length === 4) {
        const r = await pool.query('SELECT * FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2', [
          parts[1],
          parts[3],
        ])
        return send(res, r.rows[0] ? 200 : 404, r.rows[0] ?? {})
      }
      // PUT /sites/:site/payments/:id/refunds/:refundId — lock, check, insert, update
      if (req.method === 'PUT' && parts[4] === 'refunds') {
        const b = await body(req)
        const minor = Math.round(Number(b.amount.value) * 100)
        const row = await tx(async (c) => {
          const p = (
            await c.query('SELECT * FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2 FOR UPDATE', [
              parts[1],
              parts[3],
            ])
          ).rows[0]
          const ok = BigInt(p.refundedMinor) + BigInt(minor) <= BigInt(p.capturedMinor)
          if (ok)
            await c.query('UPDATE "Payment" SET "refundedMinor" = "refundedMinor" + $2 WHERE id = $1', [p.id, minor])
          const r = await c.query(
            `INSERT INTO "Refund" (id, "siteId", "refundId", "paymentRef", fingerprint, currency, "amountMinor", flags, status, "statusReason", "statusChangedAt", "createdAt")
             VALUES ($1, $2, $3, $4, 'floor', $5, $6, '{}', $7, $8, now(), now()) RETURNING *`,
            [
              randomUUID(),
              parts[1],
              parts[5],
              p.id,
              p.currency,
              minor,
              ok ? 'COMPLETED' : 'DECLINED',
              ok ? null : 'INVALID_AMOUNT',
            ],
          )
          return r.rows[0]
        })
        return send(res, 200, row)
      }
      // PUT /sites/:site/bills/:id
      if (req.method === 'PUT' && parts[2] === 'bills') {
        const b = await body(req)
        const r = await pool.query(
          `INSERT INTO "Bill" (id, "siteId", "billId", "invoiceUid", currency, "amountMinor", flags, status, "statusChangedAt", "createdAt", "expiresAt")
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'CREATED', now(), now(), $8) RETURNING *`,
          [
            randomUUID(),
            parts[1],
            parts[3],
            randomUUID(),
            b.amount.currency,
            Math.round(Number(b.amount.value) * 100),
            b.flags ?? [],
            b.expirationDateTime,
          ],
        )
        return send(res, 200, r.rows[0])
      }
      // GET /pay/:invoiceUid — the bill, rendered as a small page
      if (req.method === 'GET' && parts[0] === 'pay') {
        const bill = (await pool.query('SELECT * FROM "Bill" WHERE "invoiceUid" = $1', [parts[1]])).rows[0]
        return send(
          res,
          bill ? 200 : 404,
          `<!doctype html><title>Payment</title><h1>${bill?.amountMinor} ${bill?.currency}</h1><form><input name="pan"></form>`,
          'text/html',
        )
      }
      send(res, 404, {})
    } catch (e) {
      send(res, 500, { error: String(e) })
    }
  })
  server.on('close', () => void pool.end())
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)))
}
