// Instances keep serving while another instance migrates the database, and survive the database ending
// their idle connections. The hot paths run prepared (named) statements on each pooled connection; a
// migration that adds a column must not break the statements already prepared (PostgreSQL refuses a
// prepared `SELECT *` whose result type changed: "cached plan must not change result type"). On a
// database of this file's own, so the column added here touches no other test.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { BASE_URL, cardPayment, client, newSite, rub, twoStepPayment, uid } from '../support/api.ts'
import { freshDatabase, sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'

const port = Number(new URL(BASE_URL).port)
const DATABASE = 'payin_schema_change'
const instances: Instance[] = []

before(async () => {
  const url = await freshDatabase(DATABASE)
  process.env.DATABASE_URL = url
})

after(() => {
  for (const i of instances) i.kill()
})

/** `n` requests at once, so that every pooled connection of the instance prepares the statements */
const together = <T>(n: number, one: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => one(i)))

test('a migration adding columns while an instance runs: its creations, reads, captures and refunds go on', async () => {
  const instance = await startInstance(port + 100, { DATABASE_URL: process.env.DATABASE_URL!, DATABASE_POOL_SIZE: '3' })
  instances.push(instance)
  const api = client(await newSite('migrating'), '/api', instance.base)
  const round = async (label: string) => {
    const ids = await together(9, async (i) => {
      const id = uid(`${label}-${i}`)
      const created = await api.put(`/payments/${id}`, cardPayment())
      assert.equal(created.status, 200, `${label}: creation ${JSON.stringify(created.body)}`)
      assert.equal(created.body.status.value, 'COMPLETED')
      return id
    })
    const reads = await together(9, (i) => api.get(`/payments/${ids[i]}`))
    for (const r of reads) {
      assert.equal(r.status, 200, `${label}: read ${JSON.stringify(r.body)}`)
      assert.equal(r.body.status.value, 'COMPLETED')
    }
    const held = uid(`${label}-held`)
    assert.equal(
      (await api.put(`/payments/${held}`, twoStepPayment({ amount: rub('50.00') }))).body.status.value,
      'COMPLETED',
    )
    const capture = await api.put(`/payments/${held}/captures/${uid('c')}`, { amount: rub('40.00') })
    assert.equal(capture.status, 200, `${label}: capture ${JSON.stringify(capture.body)}`)
    assert.equal(capture.body.status.value, 'COMPLETED')
    const refund = await api.put(`/payments/${ids[0]}/refunds/${uid('r')}`, { amount: rub('1.00') })
    assert.equal(refund.status, 200, `${label}: refund ${JSON.stringify(refund.body)}`)
    assert.equal(refund.body.status.value, 'COMPLETED')
  }
  await round('before')
  // what a newer instance's migration does: new columns on the tables the hot statements read and write
  await sql(`ALTER TABLE "Payment" ADD COLUMN "addedByNewerVersion" integer`)
  await sql(`ALTER TABLE "Bill" ADD COLUMN "addedByNewerVersion" integer`)
  await sql(`ALTER TABLE "SiteToken" ADD COLUMN "addedByNewerVersion" integer`)
  await round('after')
  assert.equal(instance.proc.exitCode, null, 'the instance runs on')
})

test('the database ending an instance’s idle connections: the instance stays up and reconnects', async () => {
  // no scheduler or notification worker: this instance has only served the hot paths' own statements
  const instance = await startInstance(port + 110, {
    DATABASE_URL: process.env.DATABASE_URL!,
    DATABASE_POOL_SIZE: '3',
    SCHEDULER: 'off',
    NOTIFICATIONS_WORKER: 'off',
  })
  instances.push(instance)
  const api = client(await newSite('idle'), '/api', instance.base)
  const id = uid('idle')
  assert.equal((await api.put(`/payments/${id}`, cardPayment())).status, 200)
  for (const r of await together(6, () => api.get(`/payments/${id}`))) assert.equal(r.status, 200)
  const ended = await sql<{ ended: boolean }>(
    `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND application_name LIKE 'payin-%' AND state = 'idle'`,
    [DATABASE],
  )
  assert.ok(ended.length > 0 && ended.every((e) => e.ended), 'the instance had idle connections, and they were ended')
  // once those backends are gone, their sockets are closed: the instance hears of it
  const pids = (
    await sql<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name LIKE 'payin-%'`,
      [DATABASE],
    )
  ).map((r) => r.pid)
  for (let left = pids.length; left > 0;)
    left = (await sql(`SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1) AND state = 'idle'`, [pids])).length
  // the instance reads on with new connections (the pool drops an ended one when it reports the end; a
  // request that took one a moment before fails alone, so the read is asked again until it is answered)
  let read = await api.get(`/payments/${id}`)
  for (let i = 0; i < 3 && read.status === 500; i++) read = await api.get(`/payments/${id}`)
  assert.equal(read.status, 200, JSON.stringify(read.body))
  assert.equal(read.body.status.value, 'COMPLETED')
  assert.equal((await fetch(`${instance.base}/api/health`)).status, 200)
  assert.equal(instance.proc.exitCode, null, 'the instance is still running')
})
