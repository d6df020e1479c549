// SIGTERM: the instance stops accepting connections, finishes the requests in flight, and exits.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { BASE_URL, cardPayment, client, newSite, uid } from '../support/api.ts'
import { serverStdio } from '../support/server-output.ts'

test('SIGTERM finishes the refund in flight, refuses new connections, exits and leaves no database session', async () => {
  const port = Number(new URL(BASE_URL).port) + 30
  const other = `http://127.0.0.1:${port}`
  const output = serverStdio('graceful-shutdown')
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/http-server.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NOTIFICATIONS_WORKER: 'off' },
    stdio: output.stdio,
    detached: true,
  })
  output.close()
  const exited = new Promise<number | string>((r) => server.on('exit', (code, signal) => r(code ?? signal ?? -1)))
  try {
    for (let i = 0; i < 200; i++) {
      if (
        await fetch(`${other}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break
      await sleep(100)
    }
    const site = await newSite('sigterm')
    const paymentId = uid('pay')
    assert.equal((await client(site).put(`/payments/${paymentId}`, cardPayment())).body.status.value, 'COMPLETED')

    // hold the payment's row lock, so that a refund sent to the other instance stays in flight
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await holder.connect()
    await holder.query('BEGIN')
    await holder.query('SELECT 1 FROM "Payment" WHERE "paymentId" = $1 FOR UPDATE', [paymentId])
    const inFlight = fetch(`${other}/api/sites/${site.siteId}/payments/${paymentId}/refunds/${uid('ref')}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${site.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: { value: '10.00', currency: 'RUB' } }),
    })
    await sleep(500)
    const sessions = async () =>
      Number(
        (
          await holder.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1`, [
            `payin-${server.pid}`,
          ])
        ).rows[0].n,
      )
    assert.ok((await sessions()) > 0, 'the instance holds database sessions')
    process.kill(-server.pid!, 'SIGTERM')
    await sleep(500)
    await assert.rejects(
      fetch(`${other}/api/health`, { signal: AbortSignal.timeout(3000) }),
      'a new connection after SIGTERM is refused',
    )
    assert.equal(server.exitCode, null, 'the instance waits for the request in flight')

    await holder.query('COMMIT')
    const res = await inFlight
    assert.equal(res.status, 200)
    assert.equal((await res.json()).status.value, 'COMPLETED')
    const code = await Promise.race([exited, sleep(15_000).then(() => 'still running')])
    assert.notEqual(code, 'still running')
    await sleep(200)
    assert.equal(await sessions(), 0, "the instance's database sessions are closed")
    await holder.end()
    const read = await client(site).get(`/payments/${paymentId}`)
    assert.equal(read.body.refundedAmount.value, '10.00')
  } finally {
    if (server.exitCode === null && server.signalCode === null) process.kill(-server.pid!, 'SIGKILL')
  }
})
