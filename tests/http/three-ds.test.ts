import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { assertErrorShape, BASE_URL, cardPayment, client, newSite, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'
import { passChallenge } from '../support/three-ds.ts'

const THREE_DS_CARD = '4000000000003220'

describe('3-D Secure', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('3ds'))
  })

  async function challenged(flags = ['SALE']) {
    const id = uid('3ds')
    const r = await api.put(`/payments/${id}`, cardPayment({ flags }, { pan: THREE_DS_CARD }))
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'WAITING')
    assert.equal(typeof r.body.requirements.threeDS.pareq, 'string')
    assert.equal(r.body.requirements.threeDS.acsUrl, `${BASE_URL}/acs`)
    return {
      id,
      pareq: r.body.requirements.threeDS.pareq as string,
      acsUrl: r.body.requirements.threeDS.acsUrl as string,
    }
  }

  test('passed challenge completes the payment; complete is idempotent', async () => {
    const { id, pareq, acsUrl } = await challenged()
    const { pares, md } = await passChallenge(pareq, acsUrl, 'pass')
    assert.equal(md, 'merchant-data', 'MD comes back unchanged')
    const done = await api.post(`/payments/${id}/complete`, { threeDS: { pares } })
    assert.equal(done.status, 200, done.text)
    assert.equal(done.body.status.value, 'COMPLETED')
    assert.equal(done.body.capturedAmount.value, '100.00')
    assert.equal(done.body.requirements, undefined)
    const again = await api.post(`/payments/${id}/complete`, { threeDS: { pares } })
    assert.equal(again.status, 200)
    assert.deepEqual(again.body, done.body)
    assert.deepEqual((await api.get(`/payments/${id}`)).body, done.body)
  })

  test('failed challenge declines with DECLINED_BY_MPI; complete then is a 409', async () => {
    const { id, pareq, acsUrl } = await challenged()
    const { pares } = await passChallenge(pareq, acsUrl, 'fail')
    const done = await api.post(`/payments/${id}/complete`, { threeDS: { pares } })
    assert.equal(done.status, 200)
    assert.equal(done.body.status.value, 'DECLINED')
    assert.equal(done.body.status.reason, 'DECLINED_BY_MPI')
    assertErrorShape(
      await api.post(`/payments/${id}/complete`, { threeDS: { pares } }),
      409,
      'payin.incorrect-method-invocation',
    )
  })

  test('a PaRes of another payment, or forged, is a 400 and the payment stays WAITING', async () => {
    const a = await challenged()
    const b = await challenged()
    const { pares } = await passChallenge(a.pareq, a.acsUrl, 'pass')
    const wrong = await api.post(`/payments/${b.id}/complete`, { threeDS: { pares } })
    assertErrorShape(wrong, 400, 'validation.error')
    assert.ok(wrong.body.cause['threeDS.pares'])
    const failed = await passChallenge(b.pareq, b.acsUrl, 'fail')
    const [body, sig] = failed.pares.split('.')
    const forged =
      Buffer.from(Buffer.from(body, 'base64url').toString().replace(/:N$/, ':Y')).toString('base64url') + '.' + sig
    assertErrorShape(
      await api.post(`/payments/${b.id}/complete`, { threeDS: { pares: forged } }),
      400,
      'validation.error',
    )
    assertErrorShape(
      await api.post(`/payments/${b.id}/complete`, { threeDS: { pares: 'garbage' } }),
      400,
      'validation.error',
    )
    assertErrorShape(await api.post(`/payments/${b.id}/complete`, { otp: { code: '1234' } }), 400, 'validation.error')
    assert.equal((await api.get(`/payments/${b.id}`)).body.status.value, 'WAITING')
    // the payment's own PaRes still works afterwards
    const ok = await api.post(`/payments/${a.id}/complete`, { threeDS: { pares } })
    assert.equal(ok.body.status.value, 'COMPLETED')
  })

  test('a challenge left for 15 minutes declines with PAYMENT_EXPIRED_3DS', async () => {
    const { id, pareq, acsUrl } = await challenged()
    // the expiry is stored as the payment's due time, 15 minutes after its creation
    const [row] = await sql(
      `SELECT extract(epoch FROM "dueAt" - "createdAt")::int AS seconds FROM "Payment" WHERE "paymentId" = $1`,
      [id],
    )
    assert.equal(row.seconds, 15 * 60)
    await sql(`UPDATE "Payment" SET "dueAt" = now() - interval '1 second' WHERE "paymentId" = $1`, [id])
    const read = await api.get(`/payments/${id}`)
    assert.equal(read.body.status.value, 'DECLINED')
    assert.equal(read.body.status.reason, 'PAYMENT_EXPIRED_3DS')
    const { pares } = await passChallenge(pareq, acsUrl, 'pass')
    assertErrorShape(
      await api.post(`/payments/${id}/complete`, { threeDS: { pares } }),
      409,
      'payin.incorrect-method-invocation',
    )
  })

  test('two-step: authorised after the challenge, then captured', async () => {
    const { id, pareq, acsUrl } = await challenged([])
    const { pares } = await passChallenge(pareq, acsUrl, 'pass')
    const done = await api.post(`/payments/${id}/complete`, { threeDS: { pares } })
    assert.equal(done.body.status.value, 'COMPLETED')
    assert.equal(done.body.capturedAmount.value, '0.00')
    const cap = await api.put(`/payments/${id}/captures/${uid('cap')}`)
    assert.equal(cap.body.status.value, 'COMPLETED')
  })

  test('the access-control page refuses a PaReq it did not issue', async () => {
    const r = await fetch(`${BASE_URL}/acs`, {
      method: 'POST',
      body: new URLSearchParams({ PaReq: 'forged.x', MD: '', TermUrl: 'https://m.example/' }),
    })
    assert.equal(r.status, 400)
  })

  test('complete on a payment that never awaited authentication is a 409; unknown payment 404', async () => {
    const id = uid('plain')
    await api.put(`/payments/${id}`, cardPayment())
    assertErrorShape(
      await api.post(`/payments/${id}/complete`, { otp: { code: '1234' } }),
      409,
      'payin.incorrect-method-invocation',
    )
    assertErrorShape(
      await api.post(`/payments/${uid('none')}/complete`, { otp: { code: '1234' } }),
      404,
      'payin.resource.not.found',
    )
    const bad = await api.post(`/payments/${id}/complete`, {})
    assertErrorShape(bad, 400, 'validation.error')
  })
})
