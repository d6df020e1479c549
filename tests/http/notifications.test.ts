// Notifications in the production protocol's format, delivered from the outbox by the workers of two
// instances started here (the suite's own server runs no worker, and allows no loopback receiver), to
// a receiver on loopback that checks them the ways existing client libraries do. API requests go to
// instance A, whose NOTIFY_ALLOW_NETWORKS admits the loopback receiver.
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import {
  BASE_URL,
  billRequest,
  cardPayment,
  client,
  fromNow,
  newSite,
  rub,
  twoStepPayment,
  uid,
} from '../support/api.ts'
import { sql } from '../support/db.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import {
  objectOf,
  receiver,
  verifiesEveryWay,
  verifyAmountReformatted,
  verifyAsWritten,
  verifyDateReformatted,
  verifyPayinSignature,
  type Received,
} from '../support/notification-receiver.ts'
import { WORKER_ENV as LOOPBACK_WORKER_ENV } from '../support/notify-site.ts'
import { lastLine, siteOk } from '../support/site-command.ts'

const WORKER_ENV = {
  ...LOOPBACK_WORKER_ENV,
  // a lease outlives an attempt by 5 s at least: a killed instance's delivery is taken over 6 s later
  NOTIFY_LEASE_MS: '2000',
  SCHEDULER_POLL_MS: '200',
  THREE_DS_TIMEOUT_MS: '2000',
  MOBILE_OPERATOR_DELAY_MS: '1000',
}

/** the `site` command, with the settings of the instances (run asynchronously: tests/support/site-command.ts) */
const siteCommand = (...args: string[]) => siteOk(args, { ...process.env, NOTIFY_ALLOW_NETWORKS: '127.0.0.0/8' })

const DATE_TO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/

describe('notifications', () => {
  const rx = receiver()
  let hook: string
  let a: Instance
  let b: Instance
  let site: { siteId: string; token: string }
  let secret: string
  let api: ReturnType<typeof client>
  const port = Number(new URL(BASE_URL).port)

  before(async () => {
    hook = await rx.start()
    ;[a, b] = await Promise.all([startInstance(port + 40, WORKER_ENV), startInstance(port + 50, WORKER_ENV)])
    site = await newSite('notify')
    api = client(site, '/api', a.base)
    secret = lastLine(await siteCommand('notify', site.siteId, `${hook}/site`))
    assert.match(secret, /^whsec_/)
  })
  after(() => {
    a?.kill()
    b?.kill()
    rx.close()
  })

  const forPath = rx.forPath
  /** the one notification posted to a path, once it has arrived */
  const arrived = async (path: string): Promise<Received> => {
    await rx.waitFor(() => forPath(path).length >= 1)
    return forPath(path)[0]
  }
  /** the outbox rows of one resource (written with its status change: no waiting) */
  const outboxOf = async (resourceId: string) =>
    ((await api.get('/notifications')).body as any[]).filter((n) => n.resourceId === resourceId)

  test('a one-step payment: the production format, verified the three ways clients verify', async () => {
    const id = uid('pay')
    const customer = { account: 'acc-1', email: 'payer@example.com', phone: '79001234567' }
    const created = await api.put(
      `/payments/${id}`,
      cardPayment({ amount: rub('60.50'), customer, callbackUrl: `${hook}/cb/${id}` }),
    )
    assert.equal(created.status, 200, created.text)
    const r = await arrived(`/cb/${id}`)

    // production's headers
    assert.equal(r.accept, 'application/json')
    const n = JSON.parse(r.body)
    assert.deepEqual(Object.keys(n).sort(), ['payment', 'type', 'version'])
    assert.equal(n.type, 'PAYMENT')
    assert.equal(n.version, '1')
    const p = n.payment
    assert.equal(p.type, 'PAYMENT')
    assert.equal(p.paymentId, id)
    assert.equal(p.billId, created.body.billId)
    // a client that treats SUCCESS as paid sees it paid
    assert.equal(p.status.value, 'SUCCESS')
    assert.equal(p.status.reasonCode, undefined)
    // whole seconds, the API's instant
    assert.match(p.createdDateTime, DATE_TO_SECONDS)
    assert.equal(p.createdDateTime, created.body.createdDateTime.replace(/\.\d{3}/, ''))
    assert.match(p.status.changedDateTime, DATE_TO_SECONDS)
    // the amount is a JSON number written with two decimals
    assert.match(r.body, /"amount":\{"value":60\.50,"currency":"RUB"\}/)
    assert.deepEqual(p.amount, { value: 60.5, currency: 'RUB' })
    assert.deepEqual(p.flags, ['SALE'])
    assert.equal(p.paymentMethod.type, 'CARD')
    assert.equal(p.paymentMethod.maskedPan, '411111******1111')
    assert.match(p.paymentMethod.rrn, /^\d{12}$/)
    assert.match(p.paymentMethod.authCode, /^\d{6}$/)
    assert.equal(p.paymentCardInfo.paymentSystem, 'VISA')
    for (const f of ['issuingCountry', 'issuingBank', 'fundingSource', 'paymentSystemProduct'])
      assert.equal(typeof p.paymentCardInfo[f], 'string', f)
    assert.deepEqual(p.customer, customer)
    assert.deepEqual(p.customFields, {})
    assert.equal(p.tokenData, undefined)
    // production's further fields: the site, the card's holder (none given) and expiry, the acquirer's authorisation
    assert.equal(p.merchantSiteUid, site.siteId)
    assert.equal(p.paymentMethod.cardHolder, null)
    assert.equal(p.paymentMethod.cardExpireDate, '12/2030')
    assert.deepEqual(p.gatewayData, {
      type: 'ACQUIRING',
      eci: '7',
      authCode: p.paymentMethod.authCode,
      rrn: p.paymentMethod.rrn,
    })
    // the API answers the same authorisation and card information
    assert.equal(created.body.paymentMethod.rrn, p.paymentMethod.rrn)
    assert.equal(created.body.paymentMethod.authCode, p.paymentMethod.authCode)
    assert.deepEqual(created.body.paymentCardInfo, p.paymentCardInfo)
    // no card data beyond the masked number
    assert.doesNotMatch(r.body, /4111111111111111|"cvv2"|"pan"/)

    assert.ok(verifyAsWritten(secret, r), 'values as written')
    assert.ok(verifyDateReformatted(secret, r), 'date re-formatted to seconds')
    assert.ok(verifyAmountReformatted(secret, r), 'amount re-formatted with two decimals')
    assert.ok(verifyPayinSignature(secret, r), 'Payin-Signature')
  })

  test("a card verification is notified as CHECK_CARD to the site's URL; Signature over requestUid|checkOperationDate", async () => {
    const requestUid = uid('check')
    const r = await api.put(`/validation/card/requests/${requestUid}`, {
      cardData: { pan: '5555555555554444', expiryDate: '12/30', cvv2: '123' },
      tokenizationData: { account: 'acc-check' },
    })
    assert.equal(r.status, 200, r.text)
    const mine = () => forPath('/site').filter((x) => JSON.parse(x.body).checkPaymentMethod?.requestUid === requestUid)
    await rx.waitFor(() => mine().length >= 1)
    const got = mine()[0]
    assert.equal(got.accept, 'application/json')
    const n = JSON.parse(got.body)
    assert.deepEqual(Object.keys(n), ['checkPaymentMethod', 'type', 'version'])
    assert.equal(n.type, 'CHECK_CARD')
    const o = n.checkPaymentMethod
    assert.equal(o.isValidCard, true)
    assert.equal(o.createdToken.token, r.body.createdToken.token, 'the token as the answer gave it')
    assert.equal(o.checkOperationDate, r.body.checkOperationDate)
    assert.doesNotMatch(got.body, /5555555555554444|"cvv2"|"pan"/)
    const expected = createHmac('sha256', secret).update(`${requestUid}|${o.checkOperationDate}`).digest('hex')
    assert.equal(got.signature, expected, "production's CHECK_CARD signature")
    assert.ok(verifyPayinSignature(secret, got), 'Payin-Signature')
  })

  test('a two-step payment is AUTH; its capture is notified as CAPTURE', async () => {
    const id = uid('held')
    await api.put(`/payments/${id}`, twoStepPayment({ callbackUrl: `${hook}/cb/${id}` }))
    const auth = objectOf((await arrived(`/cb/${id}`)).body)
    assert.deepEqual(auth.flags, ['AUTH'])
    assert.equal(auth.status.value, 'SUCCESS')

    const cap = uid('cap')
    const answered = await api.put(`/payments/${id}/captures/${cap}`, {
      amount: rub('40.00'),
      callbackUrl: `${hook}/cb/${cap}`,
    })
    const r = await arrived(`/cb/${cap}`)
    const n = JSON.parse(r.body)
    assert.equal(n.type, 'CAPTURE')
    assert.equal(n.version, '1')
    const c = n.capture
    assert.equal(c.type, 'CAPTURE')
    assert.equal(c.captureId, cap)
    assert.equal(c.paymentId, id)
    assert.equal(c.billId, auth.billId)
    assert.equal(c.status.value, 'SUCCESS')
    assert.equal(c.createdDateTime, answered.body.createdDateTime.replace(/\.\d{3}/, ''))
    assert.match(r.body, /"amount":\{"value":40\.00,/)
    assert.ok(verifiesEveryWay(secret, r))
  })

  test("SBP payments are notified as production's: paymentMethod.phone, the payer's bank in customer, qrCodeUid", async () => {
    // an SBP payment made the Go client's way, paid in the sandbox bank app: to its callbackUrl
    const id = uid('sbp')
    const made = await api.put(`/payments/${id}`, {
      paymentMethod: { type: 'SBP' },
      amount: rub('5.00'),
      callbackUrl: `${hook}/cb/${id}`,
    })
    const qrcId = made.body.requirements.sbp.qrcId
    assert.equal((await api.post(`/sandbox/sbp/${qrcId}/pay`, { bankMemberId: '100000000901' })).status, 200)
    const r = await arrived(`/cb/${id}`)
    const p = objectOf(r.body)
    assert.equal(p.qrCodeUid, qrcId)
    assert.equal(p.status.value, 'SUCCESS')
    assert.deepEqual(p.paymentMethod, { type: 'SBP', maskedPan: null, rrn: null, authCode: null, phone: '79001112233' })
    assert.deepEqual(p.customer, {
      phone: '79001112233',
      bankAccountNumber: '40817810000000000901',
      bic: '044525901',
      lastName: 'IVANOV',
      firstName: 'IVAN',
      middleName: 'IVANOVICH',
      bankMemberId: '100000000901',
    })
    assert.deepEqual(p.flags, ['SALE'])
    assert.equal(p.paymentCardInfo, undefined)
    assert.ok(verifiesEveryWay(secret, r))
    // a QR code of the QR API declined in the bank app: its payment goes to the site's URL, DECLINED
    const qrCodeUid = uid('qr')
    await api.put(`/sbp/qrCodes/${qrCodeUid}`, { amount: rub('7.00'), qrCode: { type: 'DYNAMIC' } })
    const declined = await api.post(`/sandbox/sbp/${qrCodeUid}/decline`)
    const paymentId = declined.body.payment.paymentUid
    await rx.waitFor(() => forPath('/site').some((x) => objectOf(x.body).paymentId === paymentId))
    const d = forPath('/site').find((x) => objectOf(x.body).paymentId === paymentId)!
    const o = objectOf(d.body)
    assert.equal(o.qrCodeUid, qrCodeUid)
    assert.equal(o.status.value, 'DECLINED')
    assert.equal(o.status.reasonCode, 'SBP_DECLINED_BY_PAYER')
    assert.match(o.billId, /^autogenerated-/)
    assert.ok(verifiesEveryWay(secret, d))
  })

  test('a declined payment: DECLINED with reasonCode and reasonMessage, no rrn', async () => {
    const id = uid('dec')
    await api.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/cb/${id}` }, { pan: '4000000000009995' }))
    const r = await arrived(`/cb/${id}`)
    const p = objectOf(r.body)
    assert.equal(p.status.value, 'DECLINED')
    assert.equal(p.status.reasonCode, 'ACQUIRING_INSUFFICIENT_FUNDS')
    assert.equal(typeof p.status.reasonMessage, 'string')
    assert.ok(p.status.reasonMessage.length > 0)
    assert.equal(p.paymentMethod.rrn, null)
    assert.equal(p.paymentMethod.authCode, null)
    assert.ok(verifiesEveryWay(secret, r))
  })

  test('a payment that issued a token carries tokenData', async () => {
    const id = uid('tok')
    const created = await api.put(
      `/payments/${id}`,
      cardPayment(
        { flags: ['SALE', 'BIND_PAYMENT_TOKEN'], customer: { account: 'acc-tok' }, callbackUrl: `${hook}/cb/${id}` },
        { pan: '5555555555554444', expiryDate: '02/31' },
      ),
    )
    const r = await arrived(`/cb/${id}`)
    const p = objectOf(r.body)
    assert.equal(p.tokenData.paymentToken, created.body.createdToken.token)
    // the token lasts through the card's expiry month
    assert.equal(p.tokenData.expiredDate, '2031-02-28T00:00:00+00:00')
    assert.equal(p.paymentCardInfo.paymentSystem, 'MASTERCARD')
    assert.ok(verifiesEveryWay(secret, r))
    // at rest the outbox holds no token (only its hash is kept); the merchant's view shows what was posted
    const [row] = await sql(`SELECT body FROM "Notification" WHERE "resourceId" = $1`, [id])
    assert.ok(!row.body.includes(created.body.createdToken.token))
    const [view] = await outboxOf(id)
    assert.equal(view.rawBody, r.body)
    assert.equal(view.body.payment.tokenData.paymentToken, created.body.createdToken.token)
  })

  test('refunds: partial SUCCESS, declined DECLINE with reasonCode, a reversal flagged REVERSAL', async () => {
    const paid = await api.newPayment(cardPayment({ amount: rub('100.00') }))
    const part = uid('ref')
    await api.put(`/payments/${paid}/refunds/${part}`, { amount: rub('30.25'), callbackUrl: `${hook}/cb/${part}` })
    const too = uid('ref')
    await api.put(`/payments/${paid}/refunds/${too}`, { amount: rub('80.00'), callbackUrl: `${hook}/cb/${too}` })
    const held = await api.newPayment(twoStepPayment({ amount: rub('100.00') }))
    const reversal = uid('ref')
    await api.put(`/payments/${held}/refunds/${reversal}`, {
      amount: rub('100.00'),
      callbackUrl: `${hook}/cb/${reversal}`,
    })

    const partial = await arrived(`/cb/${part}`)
    const n = JSON.parse(partial.body)
    assert.equal(n.type, 'REFUND')
    assert.equal(n.refund.type, 'REFUND')
    assert.equal(n.refund.refundId, part)
    assert.equal(n.refund.paymentId, paid)
    assert.equal(n.refund.status.value, 'SUCCESS')
    assert.deepEqual(n.refund.flags, [])
    assert.match(partial.body, /"amount":\{"value":30\.25,/)
    assert.ok(verifiesEveryWay(secret, partial))

    const declined = await arrived(`/cb/${too}`)
    assert.equal(objectOf(declined.body).status.value, 'DECLINE')
    assert.equal(objectOf(declined.body).status.reasonCode, 'INVALID_AMOUNT')
    assert.ok(verifiesEveryWay(secret, declined))

    const reversed = await arrived(`/cb/${reversal}`)
    assert.deepEqual(objectOf(reversed.body).flags, ['REVERSAL'])
    assert.equal(objectOf(reversed.body).status.value, 'SUCCESS')
    assert.ok(verifiesEveryWay(secret, reversed))
  })

  test("each notification goes to exactly one URL: callbackUrl, else the bill's invoice_callback_url, else the site's", async () => {
    const own = uid('own')
    await api.put(`/payments/${own}`, cardPayment({ callbackUrl: `${hook}/cb/${own}` }))
    const plain = uid('plain')
    await api.put(`/payments/${plain}`, cardPayment())
    const billId = uid('bill')
    const bill = await api.put(
      `/bills/${billId}`,
      billRequest({ customFields: { invoice_callback_url: `${hook}/bill-cb/${billId}`, order: 'A-17' } }),
    )
    assert.equal(bill.status, 200, bill.text)
    assert.deepEqual(bill.body.customFields, { invoice_callback_url: `${hook}/bill-cb/${billId}`, order: 'A-17' })
    const onBill = uid('onbill')
    await api.put(`/payments/${onBill}`, cardPayment({ billId, amount: rub('3.00') }))
    // a payment's own callbackUrl wins over its bill's (the bill is paid: this one is declined, and notified)
    const onBillOwn = uid('onbill-own')
    await api.put(
      `/payments/${onBillOwn}`,
      cardPayment({ billId, amount: rub('3.00'), callbackUrl: `${hook}/cb/${onBillOwn}` }),
    )
    const held = await api.newPayment(twoStepPayment())
    const cap = uid('cap')
    await api.put(`/payments/${held}/captures/${cap}`, { callbackUrl: `${hook}/cb/${cap}` })
    const ref = uid('ref')
    await api.put(`/payments/${own}/refunds/${ref}`, { amount: rub('1.00') })

    // the outbox is written with each change: one row each, to the one URL
    const expect: [string, string][] = [
      [own, `${hook}/cb/${own}`],
      [plain, `${hook}/site`],
      [onBill, `${hook}/bill-cb/${billId}`],
      [onBillOwn, `${hook}/cb/${onBillOwn}`],
      [held, `${hook}/site`],
      [cap, `${hook}/cb/${cap}`],
      [ref, `${hook}/site`],
    ]
    for (const [id, url] of expect)
      assert.deepEqual(
        (await outboxOf(id)).map((n) => n.url),
        [url],
        id,
      )
    await rx.waitFor(() => forPath(`/bill-cb/${billId}`).length === 1 && forPath(`/cb/${onBillOwn}`).length === 1)
    const billPayment = objectOf(forPath(`/bill-cb/${billId}`)[0].body)
    assert.equal(billPayment.paymentId, onBill)
    assert.equal(billPayment.billId, billId)
    assert.deepEqual(billPayment.customFields, { invoice_callback_url: `${hook}/bill-cb/${billId}`, order: 'A-17' })
    assert.equal(objectOf(forPath(`/cb/${onBillOwn}`)[0].body).status.reasonCode, 'BILL_ALREADY_PAID')
    // what the site's URL received is none of the operations that named their own
    await rx.waitFor((g) =>
      [plain, held, ref].every((id) =>
        g.some((x) => x.path === '/site' && objectOf(x.body)[id === ref ? 'refundId' : 'paymentId'] === id),
      ),
    )
    const atSite = forPath('/site').map((x) => objectOf(x.body))
    for (const id of [own, onBill, onBillOwn])
      assert.ok(!atSite.some((o) => o.paymentId === id && o.type === 'PAYMENT'), id)
    assert.ok(!atSite.some((o) => o.captureId === cap))
  })

  test('mobile payments: the operator’s answer is applied and notified without any read', async () => {
    const confirmed = uid('mob0')
    const rejected = uid('mob1')
    const mobile = (phone: string, id: string) => ({
      paymentMethod: { type: 'MOBILE', phone },
      amount: rub('50.00'),
      callbackUrl: `${hook}/cb/${id}`,
    })
    assert.equal(
      (await api.put(`/payments/${confirmed}`, mobile('79001230000', confirmed))).body.status.value,
      'WAITING',
    )
    assert.equal((await api.put(`/payments/${rejected}`, mobile('79001230001', rejected))).body.status.value, 'WAITING')
    // nobody reads them: the scheduler applies the operator's answer at its time
    const ok = objectOf((await arrived(`/cb/${confirmed}`)).body)
    assert.equal(ok.status.value, 'SUCCESS')
    assert.deepEqual(ok.flags, ['SALE'])
    assert.equal(ok.paymentMethod.type, 'MOBILE')
    assert.equal(ok.paymentCardInfo, undefined)
    const no = objectOf((await arrived(`/cb/${rejected}`)).body)
    assert.equal(no.status.value, 'DECLINED')
    assert.equal(no.status.reasonCode, 'ACQUIRING_INSUFFICIENT_FUNDS')
    // the database holds the final state, dated when the operator's answer fell due
    const rows = await sql(
      `SELECT "paymentId", status, "dueAt", "statusChangedAt", "createdAt" FROM "Payment" WHERE "paymentId" = ANY($1)`,
      [[confirmed, rejected]],
    )
    for (const row of rows) {
      assert.notEqual(row.status, 'WAITING')
      assert.equal(row.dueAt, null)
      assert.equal(row.statusChangedAt.getTime() - row.createdAt.getTime(), 1000)
    }
  })

  test('a 3-D Secure challenge left alone is declined PAYMENT_EXPIRED_3DS and notified', async () => {
    const id = uid('3ds')
    const created = await api.put(
      `/payments/${id}`,
      cardPayment({ callbackUrl: `${hook}/cb/${id}` }, { pan: '4000000000003220' }),
    )
    assert.equal(created.body.status.value, 'WAITING')
    const p = objectOf((await arrived(`/cb/${id}`)).body)
    assert.equal(p.status.value, 'DECLINED')
    assert.equal(p.status.reasonCode, 'PAYMENT_EXPIRED_3DS')
    const read = await api.get(`/payments/${id}`)
    assert.equal(read.body.status.reason, 'PAYMENT_EXPIRED_3DS')
  })

  test('a bill past its deadline is EXPIRED in the database without a read', async () => {
    const billId = uid('bill')
    const created = await api.put(`/bills/${billId}`, billRequest({ expirationDateTime: fromNow(1500) }))
    assert.equal(created.status, 200, created.text)
    const deadline = Date.now() + 15_000
    let row: any
    while (Date.now() < deadline) {
      ;[row] = await sql(`SELECT status, "statusChangedAt", "expiresAt" FROM "Bill" WHERE "billId" = $1`, [billId])
      if (row.status === 'EXPIRED') break
      await new Promise((r) => setTimeout(r, 100))
    }
    assert.equal(row.status, 'EXPIRED')
    assert.equal(row.statusChangedAt.getTime(), row.expiresAt.getTime())
    const details = await api.get(`/bills/${billId}/details`)
    assert.equal(details.body.status.value, 'EXPIRED')
    assert.equal(details.body.status.changedDateTime, created.body.expirationDateTime)
  })

  test('the signing secret: shown at any time, rotated with a grace period', async () => {
    const own = await newSite('secret')
    const shown = lastLine(await siteCommand('secret', own.siteId))
    assert.match(shown, /^whsec_/)
    // a site that never ran notify signs with the secret the command shows
    const ownApi = client(own, '/api', a.base)
    const first = uid('pay')
    await ownApi.put(`/payments/${first}`, cardPayment({ callbackUrl: `${hook}/cb/${first}` }))
    assert.ok(verifiesEveryWay(shown, await arrived(`/cb/${first}`)))

    const rotated = lastLine(await siteCommand('rotate-secret', own.siteId))
    assert.match(rotated, /^whsec_/)
    assert.notEqual(rotated, shown)
    assert.equal(lastLine(await siteCommand('secret', own.siteId)), rotated)
    // during the grace period: Signature still with the old secret, Payin-Signature with both
    const during = uid('pay')
    await ownApi.put(`/payments/${during}`, cardPayment({ callbackUrl: `${hook}/cb/${during}` }))
    const r = await arrived(`/cb/${during}`)
    assert.ok(verifyAsWritten(shown, r))
    assert.ok(verifyPayinSignature(shown, r))
    assert.ok(verifyPayinSignature(rotated, r))
    // after it: the new secret alone
    await sql(`UPDATE "Site" SET "notifySecretRotatedAt" = now() - interval '25 hours' WHERE id = $1`, [own.siteId])
    const later = uid('pay')
    await ownApi.put(`/payments/${later}`, cardPayment({ callbackUrl: `${hook}/cb/${later}` }))
    const r2 = await arrived(`/cb/${later}`)
    assert.ok(verifiesEveryWay(rotated, r2))
    assert.equal(verifyAsWritten(shown, r2), false)
    assert.equal(verifyPayinSignature(shown, r2), false)

    // after a leak: --now ends the old secret at once
    const fresh = lastLine(await siteCommand('rotate-secret', own.siteId, '--now'))
    const next = uid('pay')
    await ownApi.put(`/payments/${next}`, cardPayment({ callbackUrl: `${hook}/cb/${next}` }))
    const r3 = await arrived(`/cb/${next}`)
    assert.ok(verifiesEveryWay(fresh, r3))
    assert.equal(verifyAsWritten(rotated, r3), false)
    assert.equal(verifyPayinSignature(rotated, r3), false)
  })

  test('a tampered body or an old timestamp fails verification', async () => {
    const id = uid('pay')
    await api.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/cb/${id}` }))
    const r = await arrived(`/cb/${id}`)
    assert.ok(verifiesEveryWay(secret, r))
    const amount = { ...r, body: r.body.replace('"value":100.00', '"value":999.00') }
    assert.equal(verifyAsWritten(secret, amount), false)
    assert.equal(verifyPayinSignature(secret, amount), false)
    // Signature covers three fields; Payin-Signature the whole body
    const status = { ...r, body: r.body.replace('"SUCCESS"', '"DECLINED"') }
    assert.equal(verifyPayinSignature(secret, status), false)
    assert.equal(verifyAsWritten('whsec_wrong', r), false)
    // a replay more than 5 minutes later is refused
    assert.equal(verifyPayinSignature(secret, r, Date.now() + 301_000), false)
  })

  test('retries after 500s until a 2xx; every attempt recorded', async () => {
    const id = uid('pay')
    await api.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/fail-twice/${id}` }))
    await rx.waitFor(() => forPath(`/fail-twice/${id}`).length === 3)
    for (const r of forPath(`/fail-twice/${id}`)) assert.ok(verifiesEveryWay(secret, r))
    const n = await settledRow(id)
    assert.equal(n.state, 'DELIVERED')
    assert.deepEqual(
      n.attemptLog.map((x: any) => x.httpStatus),
      [500, 500, 200],
    )
    assert.equal(n.attempts, 3)
  })

  /** the outbox row of a resource once its latest attempt is recorded */
  async function settledRow(resourceId: string) {
    const deadline = Date.now() + 10_000
    for (;;) {
      const [n] = await outboxOf(resourceId)
      if ((n && n.state !== 'PENDING') || Date.now() > deadline) return n
      await new Promise((r) => setTimeout(r, 100))
    }
  }

  test('a receiver that does not answer in time is retried', async () => {
    const id = uid('pay')
    await api.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/slow-once/${id}` }))
    await rx.waitFor(() => forPath(`/slow-once/${id}`).length === 2)
    const n = await settledRow(id)
    assert.equal(n.state, 'DELIVERED')
    assert.match(n.attemptLog[0].error, new RegExp(`no answer within ${LOOPBACK_WORKER_ENV.NOTIFY_TIMEOUT_MS} ms`))
    assert.equal(n.attemptLog[1].httpStatus, 200)
  })

  test('redirects are not followed', async () => {
    const id = uid('pay')
    await api.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/redirect/${id}` }))
    await rx.waitFor(() => forPath(`/redirect/${id}`).length >= 2)
    assert.equal(forPath('/ok/redirected').length, 0)
    const [n] = await outboxOf(id)
    assert.equal(n.attemptLog[0].httpStatus, 302)
    assert.match(n.attemptLog[0].error, /redirects are not followed/)
  })

  test('delivery resumes after the instances are killed mid-way', async () => {
    const id = uid('pay')
    await api.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/hang-once/${id}` }))
    await rx.waitFor(() => forPath(`/hang-once/${id}`).length === 1)
    a.kill('SIGKILL')
    b.kill('SIGKILL')
    await Promise.all([a.exited, b.exited])
    a = await startInstance(port + 40, WORKER_ENV)
    await rx.waitFor(() => forPath(`/hang-once/${id}`).length === 2, 20_000)
    assert.equal((await settledRow(id)).state, 'DELIVERED')
    b = await startInstance(port + 50, WORKER_ENV)
  })

  test('the merchant can re-send a delivery', async () => {
    const id = uid('pay')
    await api.put(`/payments/${id}`, cardPayment({ callbackUrl: `${hook}/again/${id}` }))
    await rx.waitFor(() => forPath(`/again/${id}`).length === 1)
    // once its delivery is recorded (a re-send while one is under way is a 409)
    const n = await settledRow(id)
    assert.equal(n.state, 'DELIVERED')
    const r = await api.post(`/notifications/${n.notificationId}/resend`)
    assert.equal(r.status, 200)
    assert.equal(r.body.state, 'PENDING')
    await rx.waitFor(() => forPath(`/again/${id}`).length === 2)
    const [first, second] = forPath(`/again/${id}`)
    assert.equal(second.body, first.body)
    // signed again for the new sending
    assert.ok(verifiesEveryWay(secret, second))
    const other = await newSite('notify-other')
    assert.equal((await client(other, '/api', a.base).post(`/notifications/${n.notificationId}/resend`)).status, 404)
  })
})
