// Faster Payments (SBP) QR codes through the API (production's shapes: POST/PUT/GET …/sbp/qrCodes), paid and
// declined in the sandbox bank app without a browser (…/sandbox/sbp/{qrCodeUid}/pay|decline), expired by the
// site's clock, SBP payments made the Go client's way (PUT …/payments/{id} with type SBP), and FPS tokens.
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { assertErrorShape, assertValidation, client, newSite, request, rub, uid } from '../support/api.ts'
import { sql } from '../support/db.ts'
import { dashboardPage, signIn } from '../support/dashboard.ts'

const BILL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/
const PAYLOAD = /^http:\/\/(localhost|127\.0\.0\.1):\d+\/sbp\/[A-Za-z0-9_-]{22}$/

/** a DYNAMIC code's request; `over` replaces fields */
const dynamic = (over: Record<string, unknown> = {}) => ({
  amount: rub('200.00'),
  qrCode: { type: 'DYNAMIC', ttl: 60, image: { mediaType: 'image/png', width: 300, height: 300 } },
  paymentPurpose: 'Flowers',
  redirectUrl: 'https://shop.example/thanks',
  ...over,
})

/** what a QR reader reads from a base64 PNG */
function readPng(content: string): { text: string; width: number; height: number } {
  const png = PNG.sync.read(Buffer.from(content, 'base64'))
  const found = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)
  assert.ok(found, 'a QR reader finds a code in the image')
  return { text: found.data, width: png.width, height: png.height }
}

describe('SBP QR codes', () => {
  let api: ReturnType<typeof client>
  before(async () => {
    api = client(await newSite('sbp'))
  })

  test('POST creates a DYNAMIC code whose PNG a QR reader decodes to its payload', async () => {
    const qrCodeUid = uid('qr')
    const r = await api.post('/sbp/qrCodes', { qrCodeUid, ...dynamic() })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.qrCodeUid, qrCodeUid)
    assert.deepEqual(r.body.amount, rub('200.00'))
    assert.equal(r.body.qrCode.type, 'DYNAMIC')
    assert.equal(r.body.qrCode.ttl, 60)
    assert.equal(r.body.qrCode.status, 'CREATED')
    assert.match(r.body.qrCode.payload, PAYLOAD)
    assert.equal(r.body.paymentPurpose, 'Flowers')
    assert.equal(r.body.redirectUrl, 'https://shop.example/thanks')
    assert.match(r.body.createdOn, BILL_TIME)
    assert.equal(r.body.payment, undefined)
    const { mediaType, width, height, content } = r.body.qrCode.image
    assert.deepEqual({ mediaType, width, height }, { mediaType: 'image/png', width: 300, height: 300 })
    const read = readPng(content)
    assert.equal(read.text, r.body.qrCode.payload)
    assert.deepEqual([read.width, read.height], [300, 300])
    // the status read leaves the image out, as production's
    const got = await api.get(`/sbp/qrCodes/${qrCodeUid}`)
    assert.equal(got.status, 200, got.text)
    assert.equal(got.body.qrCode.image, undefined)
    assert.equal(got.body.qrCode.payload, r.body.qrCode.payload)
    assert.equal(got.body.qrCode.status, 'CREATED')
  })

  test('an SVG image of the asked size; no image asked, none answered; the uid is generated when absent', async () => {
    const svg = await api.post(
      '/sbp/qrCodes',
      dynamic({ qrCode: { type: 'DYNAMIC', image: { mediaType: 'image/svg+xml', width: 240, height: 120 } } }),
    )
    assert.equal(svg.status, 200, svg.text)
    assert.match(svg.body.qrCodeUid, /^[0-9a-f-]{36}$/)
    assert.equal(svg.body.qrCode.ttl, 4320, 'the default ttl is 72 hours')
    const text = Buffer.from(svg.body.qrCode.image.content, 'base64').toString('utf8')
    assert.match(text, /^<svg [^>]*width="240" height="120"/)
    const plain = await api.post('/sbp/qrCodes', dynamic({ qrCode: { type: 'DYNAMIC' } }))
    assert.equal(plain.status, 200, plain.text)
    assert.equal(plain.body.qrCode.image, undefined)
  })

  test('PUT is idempotent: the same request answers the same code, another is a 409; the aliases answer', async () => {
    const qrCodeUid = uid('qr')
    const first = await api.put(`/sbp/qrCodes/${qrCodeUid}`, dynamic())
    assert.equal(first.status, 200, first.text)
    const again = await api.put(`/sbp/qrCodes/${qrCodeUid}`, dynamic())
    assert.equal(again.status, 200, again.text)
    assert.deepEqual(again.body, first.body)
    const other = await api.put(`/sbp/qrCodes/${qrCodeUid}`, dynamic({ amount: rub('201.00') }))
    assertErrorShape(other, 409, 'payin.request.conflict')
    const posted = await api.post('/sbp/qrCodes', { qrCodeUid, ...dynamic() })
    assert.equal(posted.status, 200, posted.text)
    assert.equal(posted.body.qrCode.payload, first.body.qrCode.payload)
    assertValidation(await api.put(`/sbp/qrCodes/${qrCodeUid}`, { qrCodeUid: 'another', ...dynamic() }), 'qrCodeUid')
    const partner = client(api.site, '/partner/payin/v1')
    const aliased = await partner.get(`/sbp/qrCodes/${qrCodeUid}`)
    assert.equal(aliased.status, 200, aliased.text)
    assert.equal(aliased.body.qrCodeUid, qrCodeUid)
    assertErrorShape(await api.get(`/sbp/qrCodes/${uid('none')}`), 404, 'payin.resource.not.found')
  })

  test('bad requests are 400s naming the field, and write nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [dynamic({ amount: { value: '200.00', currency: 'USD' } }), 'amount.currency'],
      [dynamic({ qrCode: { type: 'STATIC' } }), 'qrCode.type'],
      [dynamic({ qrCode: { type: 'DYNAMIC', ttl: 0 } }), 'qrCode.ttl'],
      [dynamic({ qrCode: { type: 'DYNAMIC', ttl: 43201 } }), 'qrCode.ttl'],
      [dynamic({ amount: undefined }), 'amount'],
      [{ qrCode: { type: 'TOKEN' }, amount: rub('1.00'), tokenizationAccount: 'c1' }, 'amount'],
      [{ qrCode: { type: 'TOKEN' } }, 'tokenizationAccount'],
      [
        dynamic({ qrCode: { type: 'DYNAMIC', image: { mediaType: 'image/gif', width: 300, height: 300 } } }),
        'qrCode.image.mediaType',
      ],
      [
        dynamic({ qrCode: { type: 'DYNAMIC', image: { mediaType: 'image/png', width: 99, height: 300 } } }),
        'qrCode.image.width',
      ],
      [
        dynamic({ qrCode: { type: 'DYNAMIC', image: { mediaType: 'image/png', width: 300, height: 1001 } } }),
        'qrCode.image.height',
      ],
      [dynamic({ flags: ['SALE'] }), 'flags[0]'],
    ]
    for (const [body, field] of cases) {
      const qrCodeUid = uid('bad')
      assertValidation(await api.put(`/sbp/qrCodes/${qrCodeUid}`, body), field)
      assertErrorShape(await api.get(`/sbp/qrCodes/${qrCodeUid}`), 404, 'payin.resource.not.found')
    }
  })

  test('paid in the bank app: PAYED, with a COMPLETED SBP payment as production tells it; paid once only', async () => {
    const qrCodeUid = uid('qr')
    await api.put(`/sbp/qrCodes/${qrCodeUid}`, dynamic())
    const paid = await api.post(`/sandbox/sbp/${qrCodeUid}/pay`, { bankMemberId: '100000000902' })
    assert.equal(paid.status, 200, paid.text)
    assert.equal(paid.body.qrCode.status, 'PAYED')
    assert.equal(paid.body.payment.paymentStatus, 'COMPLETED')
    const paymentId = paid.body.payment.paymentUid
    assert.match(paymentId, /^[0-9A-F]{32}$/)
    const p = await api.paymentNow(paymentId)
    assert.equal(p.status.value, 'COMPLETED')
    assert.deepEqual(p.amount, rub('200.00'))
    assert.deepEqual(p.capturedAmount, rub('200.00'))
    assert.deepEqual(p.paymentMethod, { type: 'SBP', phone: '79002223344' })
    assert.match(p.billId, /^autogenerated-[0-9a-f-]{36}$/)
    assert.deepEqual(p.flags, ['SALE'])
    assert.deepEqual(p.customer, {
      phone: '79002223344',
      bankAccountNumber: '40817810000000000902',
      bic: '044525902',
      lastName: 'PETROVA',
      firstName: 'ANNA',
      middleName: 'SERGEEVNA',
      bankMemberId: '100000000902',
    })
    assert.equal(p.comment, 'Flowers')
    // paid once: a second pay or decline is refused, nothing more is written
    assertErrorShape(await api.post(`/sandbox/sbp/${qrCodeUid}/pay`), 409, 'payin.incorrect-method-invocation')
    assertErrorShape(await api.post(`/sandbox/sbp/${qrCodeUid}/decline`), 409, 'payin.incorrect-method-invocation')
    const got = await api.get(`/sbp/qrCodes/${qrCodeUid}`)
    assert.deepEqual(got.body.payment, { paymentUid: paymentId, paymentStatus: 'COMPLETED' })
    const [{ count }] = await sql(
      `SELECT count(*)::int AS count FROM "Payment" WHERE "siteId" = $1 AND "methodData"->>'qrCodeUid' = $2`,
      [api.site.siteId, qrCodeUid],
    )
    assert.equal(count, 1)
    // refunds as a card payment's; one-step only: a capture is declined
    const refund = await api.put(`/payments/${paymentId}/refunds/${uid('rf')}`, { amount: rub('50.00') })
    assert.equal(refund.status, 200, refund.text)
    assert.equal(refund.body.status.value, 'COMPLETED')
    const capture = await api.put(`/payments/${paymentId}/captures/${uid('cap')}`, { amount: rub('10.00') })
    assert.equal(capture.status, 200, capture.text)
    assert.equal(capture.body.status.value, 'DECLINED')
    assert.equal(capture.body.status.reason, 'INVALID_STATE')
  })

  test('concurrent pays of one code make one payment', async () => {
    const qrCodeUid = uid('qr')
    await api.put(`/sbp/qrCodes/${qrCodeUid}`, dynamic())
    const answers = await Promise.all(Array.from({ length: 6 }, () => api.post(`/sandbox/sbp/${qrCodeUid}/pay`)))
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409, 409, 409, 409, 409])
    const [{ count }] = await sql(
      `SELECT count(*)::int AS count FROM "Payment" WHERE "siteId" = $1 AND "methodData"->>'qrCodeUid' = $2`,
      [api.site.siteId, qrCodeUid],
    )
    assert.equal(count, 1)
  })

  test('declined in the bank app: DECLINED, its payment DECLINED SBP_DECLINED_BY_PAYER', async () => {
    const qrCodeUid = uid('qr')
    await api.put(`/sbp/qrCodes/${qrCodeUid}`, dynamic())
    const declined = await api.post(`/sandbox/sbp/${qrCodeUid}/decline`)
    assert.equal(declined.status, 200, declined.text)
    assert.equal(declined.body.qrCode.status, 'DECLINED')
    const p = await api.paymentNow(declined.body.payment.paymentUid)
    assert.equal(p.status.value, 'DECLINED')
    assert.equal(p.status.reason, 'SBP_DECLINED_BY_PAYER')
    assertValidation(await api.post(`/sandbox/sbp/${uid('x')}/pay`, { bankMemberId: '1' }), 'bankMemberId')
  })

  test('a code expires ttl minutes after it was made, on the site clock, written by the scheduler', async () => {
    const site = await newSite('sbp-expiry')
    const own = client(site)
    const qrCodeUid = uid('qr')
    await own.put(`/sbp/qrCodes/${qrCodeUid}`, dynamic({ qrCode: { type: 'DYNAMIC', ttl: 1 } }))
    // the advance applies what fell due before it answers
    const moved = await own.post('/sandbox/clock/advance', { seconds: 61 })
    assert.equal(moved.status, 200, moved.text)
    const [row] = await sql(`SELECT status FROM "SbpQrCode" WHERE "siteId" = $1 AND "qrCodeUid" = $2`, [
      site.siteId,
      qrCodeUid,
    ])
    assert.equal(row.status, 'EXPIRED')
    assert.equal((await own.get(`/sbp/qrCodes/${qrCodeUid}`)).body.qrCode.status, 'EXPIRED')
    assertErrorShape(await own.post(`/sandbox/sbp/${qrCodeUid}/pay`), 409, 'payin.incorrect-method-invocation')
    const [{ count }] = await sql(`SELECT count(*)::int AS count FROM "Payment" WHERE "siteId" = $1`, [site.siteId])
    assert.equal(count, 0, 'an expired code made no payment')
  })

  test('an SBP payment the Go client way: WAITING with requirements.sbp, completed in the bank app', async () => {
    const paymentId = uid('sbp')
    const r = await api.put(`/payments/${paymentId}`, {
      paymentMethod: { type: 'SBP' },
      amount: rub('4.05'),
      comment: 'Order 17',
      customer: { account: 'c-17' },
      callbackUrl: 'https://shop.example/sbp',
    })
    assert.equal(r.status, 200, r.text)
    assert.equal(r.body.status.value, 'WAITING')
    assert.deepEqual(r.body.paymentMethod, { type: 'SBP' })
    const sbp = r.body.requirements.sbp
    assert.deepEqual(Object.keys(sbp).sort(), ['image', 'payload', 'qrcId'])
    assert.equal(sbp.image.mediaType, 'image/png')
    assert.equal(readPng(sbp.image.content).text, sbp.payload)
    assert.match(sbp.payload, PAYLOAD)
    assert.deepEqual(r.body.qrCode, sbp)
    // its code is readable by its qrcId, and the payment can't be completed through the API
    const code = await api.get(`/sbp/qrCodes/${sbp.qrcId}`)
    assert.equal(code.status, 200, code.text)
    assert.equal(code.body.qrCode.status, 'CREATED')
    assert.deepEqual(code.body.amount, rub('4.05'))
    assert.deepEqual(code.body.payment, { paymentUid: paymentId, paymentStatus: 'WAITING' })
    assert.equal((await api.post(`/payments/${paymentId}/complete`, { otp: { code: '0000' } })).status, 409)
    const paid = await api.post(`/sandbox/sbp/${sbp.qrcId}/pay`, { bankMemberId: '100000000903' })
    assert.equal(paid.status, 200, paid.text)
    assert.equal(paid.body.qrCode.status, 'PAYED')
    const p = await api.paymentNow(paymentId)
    assert.equal(p.status.value, 'COMPLETED')
    assert.deepEqual(p.paymentMethod, { type: 'SBP', phone: '79003334455' })
    assert.equal(p.customer.account, 'c-17', "the merchant's customer fields stay")
    assert.equal(p.customer.lastName, 'SMIRNOV')
    assert.equal(p.requirements, undefined)
    assert.equal(p.qrCode, undefined)
    const [n] = ((await api.get('/notifications')).body as any[]).filter((x) => x.resourceId === paymentId)
    assert.equal(n.body.payment.qrCodeUid, sbp.qrcId)
    // roubles only; no two-step flags that SBP cannot do
    assertValidation(
      await api.put(`/payments/${uid('sbp')}`, {
        paymentMethod: { type: 'SBP' },
        amount: { value: '1.00', currency: 'USD' },
      }),
      'amount.currency',
    )
    // idempotent as every payment: the same request answers the same payment and code
    const again = await api.put(`/payments/${paymentId}`, {
      paymentMethod: { type: 'SBP' },
      amount: rub('4.05'),
      comment: 'Order 17',
      customer: { account: 'c-17' },
      callbackUrl: 'https://shop.example/sbp',
    })
    assert.equal(again.status, 200, again.text)
    assert.equal(again.body.status.value, 'COMPLETED')
  })

  test("an SBP payment whose code's time runs out is DECLINED SBP_QR_EXPIRED, its code EXPIRED", async () => {
    const site = await newSite('sbp-pay-expiry')
    const own = client(site)
    const paymentId = uid('sbp')
    const r = await own.put(`/payments/${paymentId}`, { paymentMethod: { type: 'SBP' }, amount: rub('9.00') })
    assert.equal(r.status, 200, r.text)
    const moved = await own.post('/sandbox/clock/advance', { seconds: 72 * 3600 + 1 })
    assert.equal(moved.status, 200, moved.text)
    const [row] = await sql(`SELECT status, "statusReason" FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2`, [
      site.siteId,
      paymentId,
    ])
    assert.deepEqual(row, { status: 'DECLINED', statusReason: 'SBP_QR_EXPIRED' })
    assert.equal((await own.get(`/sbp/qrCodes/${r.body.requirements.sbp.qrcId}`)).body.qrCode.status, 'EXPIRED')
    assertErrorShape(
      await own.post(`/sandbox/sbp/${r.body.requirements.sbp.qrcId}/pay`),
      409,
      'payin.incorrect-method-invocation',
    )
  })

  test('FPS tokens: bound through a TOKEN code, paid by token (INIT_PAYMENT_BY_TOKEN, then PAYED), bound to site and account', async () => {
    const site = await newSite('sbp-token')
    const own = client(site)
    const bindUid = uid('bind')
    const bind = await own.put(`/sbp/qrCodes/${bindUid}`, {
      qrCode: { type: 'TOKEN' },
      tokenizationAccount: 'customer-42',
      tokenizationPurpose: 'One-tap payments',
      flags: ['CREATE_TOKEN'],
    })
    assert.equal(bind.status, 200, bind.text)
    assert.equal(bind.body.amount, undefined)
    assert.equal(bind.body.token, undefined, 'no token before the payer binds it')
    const bound = await own.post(`/sandbox/sbp/${bindUid}/pay`)
    assert.equal(bound.status, 200, bound.text)
    const token = bound.body.token
    assert.equal(token.status, 'CREATED')
    assert.match(token.value, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/)
    assert.match(token.expiredDate, BILL_TIME)
    assert.deepEqual((await own.get(`/sbp/qrCodes/${bindUid}`)).body.token, token)
    // the token is not kept as such
    const stored = await sql(`SELECT * FROM "SbpToken" WHERE "siteId" = $1`, [site.siteId])
    assert.equal(stored.length, 1)
    assert.doesNotMatch(JSON.stringify(stored), new RegExp(token.value))

    const payUid = uid('qr')
    await own.put(`/sbp/qrCodes/${payUid}`, dynamic())
    assertValidation(
      await own.post(`/sbp/qrCodes/${payUid}/payments`, { tokenizationAccount: 'someone-else', token: token.value }),
      'token',
    )
    const other = client(await newSite('sbp-token-other'))
    await other.put(`/sbp/qrCodes/${payUid}`, dynamic())
    assertValidation(
      await other.post(`/sbp/qrCodes/${payUid}/payments`, { tokenizationAccount: 'customer-42', token: token.value }),
      'token',
    )
    const started = await own.post(`/sbp/qrCodes/${payUid}/payments`, {
      tokenizationAccount: 'customer-42',
      token: token.value,
    })
    assert.equal(started.status, 200, started.text)
    assert.equal(started.body.qrCode.status, 'INIT_PAYMENT_BY_TOKEN')
    assert.equal(started.body.payment.paymentStatus, 'WAITING')
    assertErrorShape(
      await own.post(`/sbp/qrCodes/${payUid}/payments`, { tokenizationAccount: 'customer-42', token: token.value }),
      409,
      'payin.incorrect-method-invocation',
    )
    // the emulated bank pays it after its delay: the advance applies it
    await own.post('/sandbox/clock/advance', { seconds: 3600 })
    const done = await own.get(`/sbp/qrCodes/${payUid}`)
    assert.equal(done.body.qrCode.status, 'PAYED')
    assert.equal(done.body.payment.paymentStatus, 'COMPLETED')
    const p = await own.paymentNow(started.body.payment.paymentUid)
    assert.equal(p.status.value, 'COMPLETED')
    assert.equal(p.paymentMethod.type, 'SBP')
  })

  test('a sandbox reset deletes the QR codes and tokens of the site', async () => {
    const site = await newSite('sbp-reset')
    const own = client(site)
    const qrCodeUid = uid('qr')
    await own.put(`/sbp/qrCodes/${qrCodeUid}`, dynamic({ flags: ['CREATE_TOKEN'], tokenizationAccount: 'c-2' }))
    assert.equal((await own.post(`/sandbox/sbp/${qrCodeUid}/pay`)).status, 200)
    assert.equal((await sql(`SELECT 1 FROM "SbpToken" WHERE "siteId" = $1`, [site.siteId])).length, 1)
    const reset = await own.post('/sandbox/reset', { confirm: site.siteId })
    assert.equal(reset.status, 200, reset.text)
    assertErrorShape(await own.get(`/sbp/qrCodes/${qrCodeUid}`), 404, 'payin.resource.not.found')
    assert.equal((await sql(`SELECT 1 FROM "SbpQrCode" WHERE "siteId" = $1`, [site.siteId])).length, 0)
    assert.equal((await sql(`SELECT 1 FROM "SbpToken" WHERE "siteId" = $1`, [site.siteId])).length, 0)
  })

  test("another site's token cannot read, pay or decline a site's code", async () => {
    const qrCodeUid = uid('qr')
    await api.put(`/sbp/qrCodes/${qrCodeUid}`, dynamic())
    const stranger = await newSite('sbp-stranger')
    const path = `/api/sites/${api.site.siteId}/sandbox/sbp/${qrCodeUid}/pay`
    const r = await request('POST', path, { token: stranger.token, body: {} })
    assertErrorShape(r, 403, 'auth.forbidden')
    const declinePath = `/api/sites/${api.site.siteId}/sandbox/sbp/${qrCodeUid}/decline`
    assertErrorShape(await request('POST', declinePath, { token: stranger.token, body: {} }), 403, 'auth.forbidden')
    const readPath = `/api/sites/${api.site.siteId}/sbp/qrCodes/${qrCodeUid}`
    assertErrorShape(await request('GET', readPath, { token: stranger.token }), 403, 'auth.forbidden')
    // under its own site's path, the stranger finds no such code
    assertErrorShape(await client(stranger).get(`/sbp/qrCodes/${qrCodeUid}`), 404, 'payin.resource.not.found')
    assert.equal((await api.get(`/sbp/qrCodes/${qrCodeUid}`)).body.qrCode.status, 'CREATED')
  })

  test("the dashboard's payment shows an SBP payment's code, payer and the FPS token its code bound (masked)", async () => {
    const site = await newSite('sbp-dash')
    const own = client(site)
    const qrCodeUid = uid('qr')
    await own.put(`/sbp/qrCodes/${qrCodeUid}`, dynamic({ flags: ['CREATE_TOKEN'], tokenizationAccount: 'cust-1' }))
    const paid = await own.post(`/sandbox/sbp/${qrCodeUid}/pay`, { bankMemberId: '100000000903' })
    assert.equal(paid.status, 200, paid.text)
    const token: string = paid.body.token.value
    const page = await dashboardPage(await signIn(site), `/dashboard/payments/${paid.body.payment.paymentUid}`)
    assert.equal(page.status, 200)
    const html = await page.text()
    assert.match(html, new RegExp(`SBP QR code</dt><dd>${qrCodeUid}<`))
    assert.match(html, /Payer&#x27;s phone<\/dt><dd>79003334455</)
    assert.match(html, /Payer&#x27;s bank<\/dt><dd>Demo Digital Bank</)
    assert.ok(html.includes(`${token.slice(0, 8)}…${token.slice(-4)}`), 'the token, masked')
    assert.ok(!html.includes(token), 'not the whole token')
  })

  test('the same request without ttl and with its default is one code; a repeated flag is folded', async () => {
    const qrCodeUid = uid('qr')
    const first = await api.put(`/sbp/qrCodes/${qrCodeUid}`, dynamic({ qrCode: { type: 'DYNAMIC' } }))
    assert.equal(first.status, 200, first.text)
    const explicit = await api.put(`/sbp/qrCodes/${qrCodeUid}`, dynamic({ qrCode: { type: 'DYNAMIC', ttl: 4320 } }))
    assert.equal(explicit.status, 200, explicit.text)
    assert.equal(explicit.body.qrCode.payload, first.body.qrCode.payload)
    const twice = await api.put(
      `/sbp/qrCodes/${uid('qr')}`,
      dynamic({ flags: ['CREATE_TOKEN', 'CREATE_TOKEN'], tokenizationAccount: 'c-9' }),
    )
    assert.equal(twice.status, 200, twice.text)
    assert.deepEqual(twice.body.flags, ['CREATE_TOKEN'])
  })

  test('an SBP payment whose bill another payment paid is withdrawn: its code cannot be paid into a decline', async () => {
    const site = await newSite('sbp-bill')
    const own = client(site)
    const billId = uid('bill')
    const bill = await own.put(`/bills/${billId}`, {
      amount: rub('12.00'),
      expirationDateTime: new Date(Date.now() + 3600_000).toISOString(),
    })
    assert.equal(bill.status, 200, bill.text)
    const sbp = async () => {
      const r = await own.put(`/payments/${uid('sbp')}`, {
        paymentMethod: { type: 'SBP' },
        amount: rub('12.00'),
        billId,
      })
      assert.equal(r.status, 200, r.text)
      assert.equal(r.body.status.value, 'WAITING')
      return { paymentId: r.body.paymentId as string, qrcId: r.body.requirements.sbp.qrcId as string }
    }
    const [first, second] = [await sbp(), await sbp()]
    const card = await own.put(`/payments/${uid('card')}`, {
      paymentMethod: { type: 'CARD', pan: '4111111111111111', expiryDate: '12/30', cvv2: '123', holderName: 'A B' },
      amount: rub('12.00'),
      flags: ['SALE'],
      billId,
    })
    assert.equal(card.body.status.value, 'COMPLETED', card.text)
    // the payer who scans the first code is told it is no longer payable; its payment is declined, not completed
    const refused = await own.post(`/sandbox/sbp/${first.qrcId}/pay`)
    assertErrorShape(refused, 409, 'payin.incorrect-method-invocation')
    // (the server's scheduler may have withdrawn it a moment before: the same outcome, told as the code's state)
    assert.match(refused.body.description, /bill .* is PAID|QR code is DECLINED/)
    const p = await own.paymentNow(first.paymentId)
    assert.deepEqual([p.status.value, p.status.reason], ['DECLINED', 'BILL_ALREADY_PAID'])
    assert.equal((await own.get(`/sbp/qrCodes/${first.qrcId}`)).body.qrCode.status, 'DECLINED')
    // the second is declined by the scheduler, with nobody reading it (a pass runs with the clock's advance)
    await own.post('/sandbox/clock/advance', { seconds: 1 })
    const [row] = await sql(`SELECT status, "statusReason" FROM "Payment" WHERE "siteId" = $1 AND "paymentId" = $2`, [
      site.siteId,
      second.paymentId,
    ])
    assert.deepEqual(row, { status: 'DECLINED', statusReason: 'BILL_ALREADY_PAID' })
    const [{ count }] = await sql(
      `SELECT count(*)::int AS count FROM "Payment" WHERE "billId" = $1 AND "siteId" = $2 AND status = 'COMPLETED'`,
      [billId, site.siteId],
    )
    assert.equal(count, 1, 'the bill is paid once')
  })

  test('a payment by FPS token tells the payer who bound the token', async () => {
    const site = await newSite('sbp-token-payer')
    const own = client(site)
    await own.put('/sbp/qrCodes/bind', { qrCode: { type: 'TOKEN' }, tokenizationAccount: 'c-1' })
    const bound = await own.post('/sandbox/sbp/bind/pay', { bankMemberId: '100000000902' })
    assert.equal(bound.status, 200, bound.text)
    await own.put('/sbp/qrCodes/pay', dynamic())
    const started = await own.post('/sbp/qrCodes/pay/payments', {
      tokenizationAccount: 'c-1',
      token: bound.body.token.value,
    })
    assert.equal(started.status, 200, started.text)
    const p = await own.paymentNow(started.body.payment.paymentUid)
    assert.deepEqual(p.paymentMethod, { type: 'SBP', phone: '79002223344' })
    assert.equal(p.customer.bankMemberId, '100000000902')
  })

  test('the scheduler expires a code at its time on real time too, with nobody reading it', async () => {
    const site = await newSite('sbp-sched')
    const own = client(site)
    const qrCodeUid = uid('qr')
    await own.put(`/sbp/qrCodes/${qrCodeUid}`, dynamic({ qrCode: { type: 'DYNAMIC', ttl: 1 } }))
    // its time moved into the past, as if a minute had gone by
    await sql(`UPDATE "SbpQrCode" SET "expiresAt" = now() - interval '1 second' WHERE "siteId" = $1`, [site.siteId])
    const statusNow = async () =>
      (await sql(`SELECT status FROM "SbpQrCode" WHERE "siteId" = $1`, [site.siteId]))[0].status
    // the server's scheduler runs every second: wait for its write (bounded)
    const deadline = Date.now() + 20_000
    while ((await statusNow()) !== 'EXPIRED' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    assert.equal(await statusNow(), 'EXPIRED')
  })
})
