// Where notifications may go, checked when the merchant names the address: the suite's server allows
// no network (NOTIFY_ALLOW_NETWORKS set empty), so a callbackUrl or a bill's invoice_callback_url whose
// host is a literal loopback, private, link-local, unspecified … address is a 400 and nothing is
// written. These tests never connect anywhere: each refused address is refused before any delivery.
// (A host name that resolves to such an address is refused at delivery: tests/unit/outgoing-policy.)
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import {
  assertValidation,
  billRequest,
  cardPayment,
  client,
  newSite,
  rub,
  twoStepPayment,
  uid,
} from '../support/api.ts'
import { siteCommand, siteOk } from '../support/site-command.ts'

const REFUSED = [
  'http://127.0.0.1:8080/hook',
  'http://127.0.0.1:54339/',
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.1/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://0.0.0.0/hook',
  'https://192.168.1.20/hook',
  'http://[::1]:3000/hook',
  'http://2130706433/hook', // 127.0.0.1 written as one number
  'http://0x7f.1/hook',
  'http://203.0.113.7/hook', // documentation
  'http://[2001:db8::1]/hook',
  'http://[::ffff:0:7f00:1]/hook', // IPv4-translated
]

describe('callback URLs', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('callbacks'))
  })

  test('a payment whose callbackUrl is a refused literal address is a 400, and nothing is written', async () => {
    for (const url of REFUSED) {
      const id = uid('pay')
      const r = await api.put(`/payments/${id}`, cardPayment({ callbackUrl: url }))
      assertValidation(r, 'callbackUrl')
      assert.match(r.body.cause.callbackUrl[0], /private address/, url)
      assert.equal((await api.get(`/payments/${id}`)).status, 404, url)
    }
  })

  test('captures and refunds refuse them too', async () => {
    const held = await api.newPayment(twoStepPayment())
    const paid = await api.newPayment(cardPayment())
    for (const url of REFUSED.slice(0, 6)) {
      const cap = uid('cap')
      assertValidation(await api.put(`/payments/${held}/captures/${cap}`, { callbackUrl: url }), 'callbackUrl')
      assert.equal((await api.get(`/payments/${held}/captures/${cap}`)).status, 404)
      const ref = uid('ref')
      assertValidation(
        await api.put(`/payments/${paid}/refunds/${ref}`, { amount: rub('1.00'), callbackUrl: url }),
        'callbackUrl',
      )
      assert.equal((await api.get(`/payments/${paid}/refunds/${ref}`)).status, 404)
    }
    assert.equal((await api.paymentNow(held)).capturedAmount.value, '0.00')
    assert.equal((await api.paymentNow(paid)).refundedAmount.value, '0.00')
  })

  test("a bill's customFields.invoice_callback_url is checked the same way", async () => {
    for (const url of REFUSED.slice(0, 6)) {
      const billId = uid('bill')
      const r = await api.put(`/bills/${billId}`, billRequest({ customFields: { invoice_callback_url: url } }))
      assertValidation(r, 'customFields.invoice_callback_url')
      assert.equal((await api.get(`/bills/${billId}/details`)).status, 404)
    }
    assertValidation(
      await api.put(
        `/bills/${uid('bill')}`,
        billRequest({ customFields: { invoice_callback_url: 'ftp://files.example/x' } }),
      ),
      'customFields.invoice_callback_url',
    )
    assertValidation(
      await api.put(`/bills/${uid('bill')}`, billRequest({ customFields: { note: 5 } })),
      'customFields.note',
    )
    // a host name is accepted (it is checked on the address it resolves to, at delivery); a bill alone sends nothing
    const ok = await api.put(
      `/bills/${uid('bill')}`,
      billRequest({ customFields: { invoice_callback_url: 'https://shop.example/payin', theme: 'dark' } }),
    )
    assert.equal(ok.status, 200, ok.text)
    assert.deepEqual(ok.body.customFields, { invoice_callback_url: 'https://shop.example/payin', theme: 'dark' })
  })

  test('the site command refuses a private notification URL', async () => {
    const siteId = uid('cli')
    const env = { ...process.env, NOTIFY_ALLOW_NETWORKS: '' }
    await siteOk(['create', siteId], env)
    const refused = await siteCommand(['notify', siteId, 'http://169.254.169.254/latest'], env)
    assert.equal(refused.code, 1)
    assert.match(refused.stderr, /private address/)
  })
})
