// The production documentation's request examples (tests/http/documented-examples-data.ts lists them all): for
// each on an endpoint we serve, after what it presupposes (a bill, a payment to capture or refund, a token…), a
// request of the same shape (the same key paths, values of our own) answers 2xx, and the answer's key paths and
// formats are the documented answer's; so are those of the notification the documentation shows for its flow.
// What differs intendedly is listed (DIFFERENCES) with its reason: any other difference fails, and so does a
// listed one that no longer occurs. Requests go to an instance of our own that delivers notifications to a
// receiver on loopback (the suite's server has no delivery worker).
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { API_PREFIXES, API_ROUTE_METHODS } from '../../lib/http/api-routes.ts'
import { type Answer, BASE_URL, client, newSite, request, uid } from '../support/api.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { receiver } from '../support/notification-receiver.ts'
import { notifyTo, WORKER_ENV } from '../support/notify-site.ts'
import { siteOk } from '../support/site-command.ts'
import { passChallenge } from '../support/three-ds.ts'
import {
  AWAITING,
  DIFFERENCES,
  EXAMPLES,
  type DifferenceKind,
  type DocumentedExample,
  type Kind,
  type OneOf,
  type Shape,
} from './documented-examples-data.ts'

type Json = any
type Api = ReturnType<typeof client>

// ---- shapes: key paths and the format of each leaf

const FORMATS: Record<Kind, (v: unknown) => boolean> = {
  money: (v) => typeof v === 'string' && /^-?\d+\.\d{2}$/.test(v),
  moneyNumber: (v) => typeof v === 'number',
  currency: (v) => typeof v === 'string' && /^[A-Z]{3}$/.test(v),
  dateTime: (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/.test(v),
  localDateTime: (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(v),
  uuid: (v) => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v),
  digits: (v) => typeof v === 'string' && /^\d+$/.test(v),
  maskedPan: (v) => typeof v === 'string' && /^\d{2,6}[*X]{2,9}\d{2,4}$/.test(v),
  url: (v) => typeof v === 'string' && /^https?:\/\/\S+$/.test(v),
  base64: (v) => typeof v === 'string' && /^[A-Za-z0-9+/=_-]+$/.test(v),
  string: (v) => typeof v === 'string',
  nullOrString: (v) => v === null || typeof v === 'string',
  boolean: (v) => typeof v === 'boolean',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number',
  anyObject: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  anyArray: (v) => Array.isArray(v),
  elided: () => true,
}
/** kinds whose content the documentation does not show: any key path below them is documented */
const OPEN: ReadonlySet<Kind> = new Set(['anyObject', 'anyArray', 'elided'])

type Leaf = Kind | OneOf
const isOneOf = (s: Shape): s is OneOf => typeof s === 'object' && !Array.isArray(s) && 'oneOf' in s
const fits = (leaf: Leaf, v: unknown) =>
  typeof leaf === 'string' ? FORMATS[leaf](v) : typeof v === 'string' && leaf.oneOf.includes(v)

/** the documented leaves by key path (an array's elements at `path[]`, their variants' paths joined) */
function shapePaths(shape: Shape, path: string, into = new Map<string, Leaf[]>()): Map<string, Leaf[]> {
  if (typeof shape === 'string' || isOneOf(shape)) into.set(path, [...(into.get(path) ?? []), shape])
  else if (Array.isArray(shape)) for (const variant of shape) shapePaths(variant, `${path}[]`, into)
  else for (const [k, v] of Object.entries(shape as Record<string, Shape>)) shapePaths(v, `${path}.${k}`, into)
  return into
}

/** our values by key path: leaves, and empty objects and arrays */
function valuePaths(value: unknown, path: string, into = new Map<string, unknown[]>()): Map<string, unknown[]> {
  const add = (v: unknown) => into.set(path, [...(into.get(path) ?? []), v])
  if (Array.isArray(value)) {
    if (!value.length) add(value)
    for (const v of value) valuePaths(v, `${path}[]`, into)
  } else if (value && typeof value === 'object') {
    if (!Object.keys(value).length) add(value)
    for (const [k, v] of Object.entries(value)) valuePaths(v, `${path}.${k}`, into)
  } else add(value)
  return into
}

/** a path and its ancestors: `a.b[].c` → a, a.b, a.b[], a.b[].c */
function prefixes(path: string): string[] {
  const out: string[] = []
  const re = /^[^.[]+|\.[^.[]+|\[\]/g
  let m: RegExpExecArray | null
  let at = ''
  while ((m = re.exec(path))) out.push((at += m[0]))
  return out
}

/** the differences of a value from a documented shape, as `kind where.path` */
export function differences(where: string, shape: Shape, value: unknown): string[] {
  const documented = shapePaths(shape, where)
  const ours = valuePaths(value, where)
  const documentedPrefixes = new Set([...documented.keys()].flatMap(prefixes))
  const ourPrefixes = new Set([...ours.keys()].flatMap(prefixes))
  const out = new Set<string>()
  const openAbove = (path: string) =>
    prefixes(path).some((p) => p !== path && documented.get(p)?.some((l) => typeof l === 'string' && OPEN.has(l)))
  for (const [path, leaves] of documented) {
    if (openAbove(path)) continue
    const values = ours.get(path)
    if (values) {
      const wrong = values.filter((v) => !leaves.some((l) => fits(l, v)))
      if (wrong.length) out.add(`format ${path}`)
      continue
    }
    // an empty array of ours has no elements to compare; an object or array where a leaf is documented fits
    // only a documented open kind
    const missingAt = prefixes(path).find((p) => !ourPrefixes.has(p))
    if (missingAt === undefined) {
      if (!leaves.some((l) => typeof l === 'string' && OPEN.has(l))) out.add(`format ${path}`)
      continue
    }
    const emptyArrayAbove = prefixes(path).some((p) => (ours.get(p) ?? []).some((v) => Array.isArray(v) && !v.length))
    if (!emptyArrayAbove) out.add(`missing ${missingAt}`)
  }
  for (const path of ours.keys()) {
    if (documented.has(path) || openAbove(path)) continue
    const extraAt = prefixes(path).find((p) => !documentedPrefixes.has(p))
    if (extraAt !== undefined) out.add(`extra ${extraAt}`)
    else if (!documentedPrefixes.has(path)) out.add(`extra ${path}`)
  }
  return [...out].sort()
}

// ---- what the examples send: our own values

const futureDate = (days: number) => {
  // written with Moscow's offset, as the documentation's dates are
  const local = new Date(Date.now() + days * 86_400_000 + 3 * 3_600_000).toISOString().slice(0, 19)
  return `${local}+03:00`
}
const VISA = { type: 'CARD', pan: '4111111111111111', expiryDate: '12/30', cvv2: '123', holderName: 'IVAN PETROV' }
const THREE_DS = { ...VISA, pan: '4000000000003220' }
const rubles = (value: number) => ({ currency: 'RUB', value })
const rublesText = (value: string) => ({ currency: 'RUB', value })
const image = { mediaType: 'image/png', width: 300, height: 300 }

interface Run {
  /** the example's request body, as sent */
  sent?: unknown
  answer: Answer
  /** the PAYMENT notification of the flow, parsed */
  notification?: Json
}

interface Context {
  api: Api
  /** the site's notification of a payment, once it has arrived */
  paymentNotification: (paymentId: string) => Promise<Json>
  /** the site's notification of a refund, once it has arrived */
  refundNotification: (refundId: string) => Promise<Json>
  /** the site's CHECK_CARD notification of a card verification, once it has arrived */
  checkCardNotification: (requestUid: string) => Promise<Json>
  /** the origin of the instance the requests go to (the payment page's endpoints included) */
  origin: string
  hook: string
}

/** sends the example's request (the setup's must succeed) */
async function send(api: Api, method: string, path: string, body?: unknown): Promise<Answer> {
  return api.send(method, path, body === undefined ? {} : { body })
}
async function ok(api: Api, method: string, path: string, body?: unknown): Promise<Json> {
  const r = await send(api, method, path, body)
  assert.equal(r.status, 200, `${method} ${path}: ${r.text}`)
  return r.body
}
const run = async (api: Api, method: string, path: string, body?: unknown): Promise<Run> => ({
  sent: body,
  answer: await send(api, method, path, body),
})

/** a bill whose first payment, SBP, was declined and whose second, a card's, paid it */
async function paidBill(api: Api): Promise<string> {
  const billId = uid('bill')
  const bill = { amount: rublesText('30.00'), expirationDateTime: futureDate(1), comment: 'Order 7', flags: ['SALE'] }
  await ok(api, 'PUT', `/bills/${billId}`, bill)
  const sbp = await ok(api, 'PUT', `/payments/${uid('pay')}`, {
    paymentMethod: { type: 'SBP' },
    amount: rublesText('30.00'),
    billId,
  })
  await ok(api, 'POST', `/sandbox/sbp/${sbp.requirements.sbp.qrcId}/decline`)
  await ok(api, 'PUT', `/payments/${uid('pay')}`, {
    paymentMethod: VISA,
    amount: rublesText('30.00'),
    billId,
    flags: ['SALE'],
  })
  return billId
}

/** a payment waiting for 3-D Secure (the API reference's payment request) */
async function waitingPayment(api: Api, hook: string): Promise<Run & { paymentId: string }> {
  const billId = uid('bill')
  await ok(api, 'PUT', `/bills/${billId}`, { amount: rublesText('20.00'), expirationDateTime: futureDate(1) })
  const paymentId = uid('pay')
  const body = {
    billId,
    amount: rubles(20),
    paymentMethod: {
      ...THREE_DS,
      cardTokenPaymentType: 'FIRST_PAYMENT',
      firstTransaction: { paymentId: uid('first') },
    },
    customer: {
      account: 'customer-7',
      address: { city: 'Kazan', country: 'Russia', details: 'Baumana 1', region: 'Tatarstan' },
      email: 'payer@example.com',
      phone: '+79001234567',
    },
    deviceData: {
      datetime: futureDate(0),
      fingerprint: 'ZmluZ2VycHJpbnQ',
      ip: '192.0.2.10',
      screenResolution: '1920x1080',
      timeOnPage: 5000,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    },
    callbackUrl: `${hook}/cb/${paymentId}`,
    comment: 'Order 8',
    customFields: { cf1: 'gift wrap' },
    flags: ['SALE'],
  }
  return { ...(await run(api, 'PUT', `/payments/${paymentId}`, body)), paymentId }
}

/** the PaRes of a payment waiting for 3-D Secure, the payer having passed it */
async function passed(waiting: Json): Promise<string> {
  return (await passChallenge(waiting.requirements.threeDS.pareq, waiting.requirements.threeDS.acsUrl, 'pass')).pares
}

/** an authorised (uncaptured) card payment */
async function hold(api: Api, extra: Record<string, unknown> = {}): Promise<string> {
  const paymentId = uid('pay')
  await ok(api, 'PUT', `/payments/${paymentId}`, { paymentMethod: VISA, amount: rublesText('40.00'), ...extra })
  return paymentId
}

/** a card payment token of the customer */
async function cardToken(api: Api, account: string): Promise<string> {
  const bound = await ok(api, 'PUT', `/payments/${uid('bind')}`, {
    paymentMethod: VISA,
    amount: rublesText('1.00'),
    customer: { account },
    flags: ['SALE', 'BIND_PAYMENT_TOKEN'],
  })
  return bound.createdToken.token
}

/** a card verification of an approved card, with a payment token for the customer */
const cardCheck = (api: Api, requestUid: string) =>
  run(api, 'PUT', `/validation/card/requests/${requestUid}`, {
    cardData: { pan: '4111111111111111', expiryDate: '12/30', cvv2: '123', holderName: 'IVAN PETROV' },
    tokenizationData: { account: 'verified-payer' },
  })

/** a card verification that waited for 3-D Secure, completed with the PaRes of a passed challenge */
async function cardCheckCompleted(api: Api): Promise<Run> {
  const requestUid = randomUUID()
  const waiting = await ok(api, 'PUT', `/validation/card/requests/${requestUid}`, {
    cardData: { pan: '4000000000003220', expiryDate: '12/30', cvv2: '123', holderName: 'IVAN PETROV' },
    tokenizationData: { account: 'verified-payer' },
  })
  const { pares } = await passChallenge(waiting.requirements.pareq, waiting.requirements.acsUrl, 'pass')
  return run(api, 'POST', `/validation/card/requests/${requestUid}/complete`, { pares })
}

/** the payer of the split examples, with the customer fields their notifications show */
const SPLIT_PAYER = { account: 'split-payer', email: 'payer@example.com', phone: '79001234567' }

/** a share of a split payment */
const split = (siteUid: string, value: string, orderId: string) => ({
  type: 'MERCHANT_DETAILS',
  siteUid,
  splitAmount: rubles(Number(value)),
  orderId,
  comment: `share of ${siteUid}`,
})

const qrBody = (amount: unknown = rublesText('5.00')) => ({
  amount,
  qrCode: { type: 'DYNAMIC', ttl: 60, image },
  paymentPurpose: 'Order 9',
  redirectUrl: 'https://shop.example/thanks',
})

/** each served example: what it presupposes, then its request */
const RUNS: Record<string, (c: Context) => Promise<Run>> = {
  'api-methods#invoice_put': ({ api }) =>
    run(api, 'PUT', `/bills/${uid('bill')}`, {
      amount: rubles(25.5),
      billPaymentMethodsType: ['CARD', 'SBP'],
      comment: 'Order 6',
      expirationDateTime: futureDate(2),
      customer: {},
      customFields: { cf1: 'table 4' },
    }),
  'api-methods#invoice-details': async ({ api }) => run(api, 'GET', `/bills/${await paidBill(api)}/details`),
  'api-methods#invoice-payments': async ({ api }) => run(api, 'GET', `/bills/${await paidBill(api)}`),
  'api-methods#payments': ({ api, hook }) => waitingPayment(api, hook),
  'api-methods#payment_status': async ({ api, hook }) =>
    run(api, 'GET', `/payments/${(await waitingPayment(api, hook)).paymentId}`),
  'api-methods#payment_complete': async ({ api, hook }) => {
    const waiting = await waitingPayment(api, hook)
    const pares = await passed(waiting.answer.body)
    return run(api, 'POST', `/payments/${waiting.paymentId}/complete`, { threeDS: { pares } })
  },
  'api-methods#capture': async ({ api, hook }) => {
    const paymentId = await hold(api)
    return run(api, 'PUT', `/payments/${paymentId}/captures/${uid('cap')}`, {
      callbackUrl: `${hook}/cb/${paymentId}`,
      comment: 'Shipped',
    })
  },
  'api-methods#capture_status': async ({ api }) => {
    const paymentId = await hold(api)
    const captureId = uid('cap')
    await ok(api, 'PUT', `/payments/${paymentId}/captures/${captureId}`, {})
    return run(api, 'GET', `/payments/${paymentId}/captures/${captureId}`)
  },
  'api-methods#qr-code-sbp-post': ({ api }) => run(api, 'POST', '/sbp/qrCodes', { qrCodeUid: uid('qr'), ...qrBody() }),
  'api-methods#qr-code-sbp-put': ({ api }) => run(api, 'PUT', `/sbp/qrCodes/${uid('qr')}`, qrBody()),
  'api-methods#qr-code-sbp-get': async ({ api, paymentNotification }) => {
    const qrCodeUid = uid('qr')
    await ok(api, 'PUT', `/sbp/qrCodes/${qrCodeUid}`, qrBody())
    await ok(api, 'POST', `/sandbox/sbp/${qrCodeUid}/pay`)
    const answer = await send(api, 'GET', `/sbp/qrCodes/${qrCodeUid}`)
    return { answer, notification: await paymentNotification(answer.body.payment.paymentUid) }
  },
  'api-methods#refund': async ({ api }) =>
    run(api, 'PUT', `/payments/${await hold(api)}/refunds/${uid('ref')}`, { amount: rubles(2.5) }),
  'api-methods#refund_status': async ({ api }) => {
    const paymentId = await hold(api)
    const refundId = uid('ref')
    await ok(api, 'PUT', `/payments/${paymentId}/refunds/${refundId}`, { amount: rublesText('2.50') })
    return run(api, 'GET', `/payments/${paymentId}/refunds/${refundId}`)
  },
  'api-methods#refunds_status': async ({ api }) => {
    const paymentId = await hold(api)
    await ok(api, 'PUT', `/payments/${paymentId}/refunds/${uid('ref')}`, { amount: rublesText('2.50') })
    return run(api, 'GET', `/payments/${paymentId}/refunds`)
  },
  'api-methods#card-check-api': ({ api }) => cardCheck(api, randomUUID()),
  'card-check#how-to-check-card': ({ api }) => cardCheck(api, randomUUID()),
  'api-methods#card-check-info': async ({ api }) => {
    const requestUid = randomUUID()
    await cardCheck(api, requestUid)
    return run(api, 'GET', `/validation/card/requests/${requestUid}`)
  },
  'api-methods#card-check-complete': ({ api }) => cardCheckCompleted(api),
  'card-check#how-to-check-card, its 3-D Secure completion': ({ api }) => cardCheckCompleted(api),
  'card-check#how-to-check-card-qiwi-payform': async ({ api, origin, checkCardNotification }) => {
    const billId = uid('check-bill')
    const bill = await run(api, 'PUT', `/bills/${billId}`, {
      expirationDateTime: futureDate(2),
      customer: { account: 'verified-payer' },
      flags: ['CHECK_CARD', 'BIND_PAYMENT_TOKEN'],
    })
    // the payer verifies a card on the bill's page; the verification's requestUid is the billId
    const attempt = await request('POST', `/pay/${bill.answer.body.invoiceUid}/attempts`, {
      base: origin,
      body: { method: 'card', pan: '4111111111111111', expiry: '12/30', cvv: '123' },
    })
    assert.equal(attempt.status, 200, attempt.text)
    return { ...bill, notification: await checkCardNotification(billId) }
  },
  'splits#form-split-json': ({ api }) =>
    run(api, 'PUT', `/bills/${uid('bill')}`, {
      amount: rublesText('30.00'),
      expirationDateTime: futureDate(2),
      comment: 'Two shops, one order',
      splits: [split('shop-a', '20.00', 'order-a'), split('shop-b', '10.00', 'order-b')],
    }),
  'splits#pay-split-json': async ({ api, paymentNotification }) => {
    // the notification's example: a payment by a card's token, with the customer's fields and custom fields
    const paymentToken = await cardToken(api, 'split-payer')
    const paymentId = uid('pay')
    const paid = await run(api, 'PUT', `/payments/${paymentId}`, {
      paymentMethod: { type: 'TOKEN', paymentToken },
      amount: rublesText('30.00'),
      customer: SPLIT_PAYER,
      deviceData: { userAgent: 'documented-examples' },
      customFields: { comment: 'Two shops, one order' },
      flags: ['SALE'],
      paymentSplits: [split('shop-a', '20.00', 'order-a'), split('shop-b', '10.00', 'order-b')],
    })
    return { ...paid, notification: await paymentNotification(paymentId) }
  },
  'splits#split-refund': async ({ api, refundNotification }) => {
    // the notification's example: a reversal of a split hold, all of each share
    const paymentId = uid('pay')
    await ok(api, 'PUT', `/payments/${paymentId}`, {
      paymentMethod: { type: 'TOKEN', paymentToken: await cardToken(api, 'split-payer') },
      amount: rublesText('30.00'),
      customer: SPLIT_PAYER,
      paymentSplits: [split('shop-a', '20.00', 'order-a'), split('shop-b', '10.00', 'order-b')],
    })
    const refundId = uid('ref')
    const refunded = await run(api, 'PUT', `/payments/${paymentId}/refunds/${refundId}`, {
      amount: rubles(30),
      refundSplits: [split('shop-a', '20.00', 'order-a'), split('shop-b', '10.00', 'order-b')],
    })
    return { ...refunded, notification: await refundNotification(refundId) }
  },
  '54fz-data#cheque-model': ({ api }) =>
    run(api, 'PUT', `/bills/${uid('bill')}`, {
      amount: rublesText('7.82'),
      expirationDateTime: futureDate(2),
      cheque: {
        sellerId: 3123011520,
        customerContact: 'buyer@example.com',
        chequeType: 'COLLECT',
        taxSystem: 'OSN',
        positions: [
          {
            quantity: 1,
            price: rubles(7.82),
            tax: 'NDS_0',
            paymentSubject: 'PAYMENT',
            paymentMethod: 'FULL_PAYMENT',
            description: 'Mug',
          },
        ],
      },
    }),
  'api-methods#refund_decline': async ({ api }) => {
    // a refund is declinable on a site that postpones its refunds
    assert.match(await siteOk(['refunds', api.site.siteId, 'postponed']), /postponed/)
    const paymentId = uid('pay')
    await ok(api, 'PUT', `/payments/${paymentId}`, {
      paymentMethod: VISA,
      amount: rublesText('40.00'),
      flags: ['SALE'],
    })
    const refundId = uid('ref')
    await ok(api, 'PUT', `/payments/${paymentId}/refunds/${refundId}`, { amount: rublesText('2.50') })
    return run(api, 'POST', `/payments/${paymentId}/refunds/${refundId}/decline`)
  },
  'payment-token#merchant-form-token-issue, the bill': ({ api }) =>
    run(api, 'PUT', `/bills/${uid('bill')}`, {
      amount: rubles(10),
      expirationDateTime: futureDate(1),
      customer: { account: 'customer-8' },
      customFields: {},
      flags: ['BIND_PAYMENT_TOKEN'],
    }),
  'payment-token#merchant-form-token-issue, the payment': ({ api }) =>
    run(api, 'PUT', `/payments/${uid('pay')}`, {
      amount: rubles(12.4),
      paymentMethod: VISA,
      customer: { account: 'customer-9', phone: '79001234567' },
      flags: ['BIND_PAYMENT_TOKEN'],
    }),
  'payment-token#merchant-form-token-issue-sbp, without a payment': ({ api }) =>
    run(api, 'POST', '/sbp/qrCodes', {
      qrCodeUid: uid('qr'),
      qrCode: { type: 'TOKEN', image },
      tokenizationPurpose: 'Pay in one tap',
      tokenizationAccount: 'customer-10',
      flags: ['CREATE_TOKEN'],
    }),
  'payment-token#merchant-form-token-issue-sbp, with a payment': ({ api }) =>
    run(api, 'POST', '/sbp/qrCodes', {
      qrCodeUid: uid('qr'),
      amount: rubles(15),
      qrCode: { type: 'DYNAMIC', image },
      tokenizationPurpose: 'Pay in one tap',
      tokenizationAccount: 'customer-11',
      redirectUrl: 'https://shop.example/thanks',
      flags: ['CREATE_TOKEN'],
    }),
  'merchant-form#merchant-form-hold, two-step': ({ api }) =>
    run(api, 'PUT', `/payments/${uid('pay')}`, { amount: rubles(3), paymentMethod: THREE_DS }),
  'merchant-form#merchant-form-hold, one-step': ({ api }) =>
    run(api, 'PUT', `/payments/${uid('pay')}`, { amount: rubles(3), paymentMethod: VISA, flags: ['SALE'] }),
  'merchant-form#merchant-threeds': async ({ api }) => {
    const paymentId = uid('pay')
    const waiting = await ok(api, 'PUT', `/payments/${paymentId}`, { amount: rubles(3), paymentMethod: THREE_DS })
    return run(api, 'POST', `/payments/${paymentId}/complete`, { threeDS: { pares: await passed(waiting) } })
  },
  'merchant-form#merchant-capture': async ({ api, paymentNotification }) => {
    const paymentId = await hold(api, { customer: { phone: '79001234567' } })
    const notification = await paymentNotification(paymentId)
    return { ...(await run(api, 'PUT', `/payments/${paymentId}/captures/${uid('cap')}`)), notification }
  },
  'merchant-form#merchant-token-pay': async ({ api }) => {
    const paymentToken = await cardToken(api, 'customer-12')
    return run(api, 'PUT', `/payments/${uid('pay')}`, {
      amount: rubles(20),
      paymentMethod: { type: 'TOKEN', paymentToken },
      customer: { account: 'customer-12' },
    })
  },
  'merchant-form#qr-sbp': ({ api }) => run(api, 'POST', '/sbp/qrCodes', qrBody(rubles(100))),
  'merchant-form#token-sbp-payment': async ({ api }) => {
    const linking = uid('qr')
    await ok(api, 'PUT', `/sbp/qrCodes/${linking}`, {
      qrCode: { type: 'TOKEN' },
      tokenizationAccount: 'customer-13',
      flags: ['CREATE_TOKEN'],
    })
    const token = (await ok(api, 'POST', `/sandbox/sbp/${linking}/pay`)).token.value
    const qrCodeUid = uid('qr')
    await ok(api, 'PUT', `/sbp/qrCodes/${qrCodeUid}`, qrBody())
    return run(api, 'POST', `/sbp/qrCodes/${qrCodeUid}/payments`, { tokenizationAccount: 'customer-13', token })
  },
  'qiwi-form#qiwi-form-invoice-api, two-step': ({ api }) =>
    run(api, 'PUT', `/bills/${uid('bill')}`, {
      amount: rubles(42),
      billPaymentMethodsType: ['CARD'],
      comment: 'Order 10',
      expirationDateTime: futureDate(3),
      customFields: {},
    }),
  'qiwi-form#qiwi-form-invoice-api, the capture': async ({ api, paymentNotification }) => {
    // the bill's hold, as its payment page makes it, issuing a token
    const billId = uid('bill')
    const customer = { email: 'payer@example.com', account: 'customer-14', phone: '79001234567' }
    await ok(api, 'PUT', `/bills/${billId}`, {
      amount: rublesText('42.00'),
      expirationDateTime: futureDate(3),
      customer,
      customFields: { cf1: 'table 2' },
    })
    const paymentId = await hold(api, {
      amount: rublesText('42.00'),
      billId,
      customer,
      flags: ['BIND_PAYMENT_TOKEN'],
    })
    const notification = await paymentNotification(paymentId)
    return { ...(await run(api, 'PUT', `/payments/${paymentId}/captures/${uid('cap')}`)), notification }
  },
  'qiwi-form#qiwi-form-invoice-api, one-step': ({ api }) =>
    run(api, 'PUT', `/bills/${uid('bill')}`, {
      amount: rubles(100),
      expirationDateTime: futureDate(3),
      flags: ['SALE'],
    }),
  'qiwi-form#qiwi-token-pay': ({ api }) =>
    run(api, 'PUT', `/bills/${uid('bill')}`, {
      amount: rubles(100),
      comment: 'Order 11',
      expirationDateTime: futureDate(3),
      customer: { account: 'customer-15' },
      customFields: { cf1: 'table 3' },
    }),
  'qiwi-form#custom': ({ api }) =>
    run(api, 'PUT', `/bills/${uid('bill')}`, {
      amount: rubles(100),
      comment: 'Order 12',
      expirationDateTime: futureDate(3),
      customer: {},
      customFields: { themeCode: 'shop-style-1' },
    }),
}

/** the listed differences of an example, as `kind where.path` */
const listed = (id: string) =>
  DIFFERENCES.filter((d) => d.examples.includes(id))
    .map((d) => `${d.kind satisfies DifferenceKind} ${d.at}`)
    .sort()

test('the inventory: every example is served by an endpoint of ours, runs, awaits a feature, or says why not', () => {
  const ids = EXAMPLES.map((e) => e.id)
  assert.equal(new Set(ids).size, ids.length, 'an id twice')
  for (const e of EXAMPLES) {
    if (e.notServed) {
      assert.equal(e.served, undefined, e.id)
      continue
    }
    if (e.testedIn) {
      assert.ok(existsSync(e.testedIn), `${e.id}: no ${e.testedIn}`)
      continue
    }
    assert.ok(e.served, `${e.id}: neither served nor notServed`)
    if (!AWAITING[e.id]) {
      assert.ok(API_ROUTE_METHODS[e.served]?.includes(e.method), `${e.id}: we serve no ${e.method} ${e.served}`)
      assert.ok(RUNS[e.id], `${e.id}: no run in RUNS`)
    }
  }
  for (const id of [...Object.keys(AWAITING), ...Object.keys(RUNS), ...DIFFERENCES.flatMap((d) => d.examples)])
    assert.ok(ids.includes(id), `${id} is no example`)
})

test('the shape comparison finds each kind of difference', () => {
  const shape: Shape = { a: 'money', b: { c: 'dateTime' }, d: ['digits'], e: 'anyObject' }
  assert.deepEqual(differences('answer', shape, { a: '1.00', b: { c: '2026-01-02T03:04:05+03:00' }, d: ['1'] }), [
    'missing answer.e',
  ])
  assert.deepEqual(differences('answer', shape, { a: 1, b: {}, d: [], e: { any: 1 }, f: { g: 1 } }), [
    'extra answer.f',
    'format answer.a',
    'missing answer.b.c',
  ])
})

describe("the production documentation's examples", () => {
  const rx = receiver()
  let hook: string
  let instance: Instance

  before(async () => {
    hook = await rx.start()
    instance = await startInstance(Number(new URL(BASE_URL).port) + 280, WORKER_ENV)
  })
  after(async () => {
    // stopped as an operator stops one, so that no delivery it has under way (of any test's site) is cut off
    instance?.kill('SIGTERM')
    await instance?.exited
    rx.close()
  })

  EXAMPLES.forEach((example: DocumentedExample, i) => {
    if (example.notServed || example.testedIn) return
    const skip = AWAITING[example.id]
    test(`${example.id}: ${example.method} ${example.documentedPath}`, { skip }, async () => {
      const site = await newSite('documented')
      // the three prefixes in turn: each answers the same
      const api = client(site, API_PREFIXES[i % API_PREFIXES.length], instance.base)
      const siteHook = `/site/${site.siteId}`
      if (example.notification) await notifyTo(site.siteId, `${hook}${siteHook}`)
      const arrived = async (which: (body: Json) => boolean) => {
        const found = () => rx.forPath(siteHook).find((r) => which(JSON.parse(r.body)))?.body
        await rx.waitFor(() => found() !== undefined)
        return JSON.parse(found()!)
      }
      const paymentNotification = (paymentId: string) => arrived((b) => b.payment?.paymentId === paymentId)
      const refundNotification = (refundId: string) => arrived((b) => b.refund?.refundId === refundId)
      const checkCardNotification = (requestUid: string) =>
        arrived((b) => b.checkPaymentMethod?.requestUid === requestUid)
      const result = await RUNS[example.id]({
        api,
        hook,
        paymentNotification,
        refundNotification,
        checkCardNotification,
        origin: instance.base,
      })
      assert.ok(
        result.answer.status >= 200 && result.answer.status < 300,
        `${result.answer.status} ${result.answer.text}`,
      )
      const found = [
        ...(example.request ? differences('request', example.request, result.sent) : []),
        ...(example.answer ? differences('answer', example.answer, result.answer.body) : []),
        ...(example.notification ? differences('notification', example.notification, result.notification) : []),
      ].sort()
      if (process.env.DOCUMENTED_EXAMPLES_DUMP)
        console.log(JSON.stringify({ id: example.id, answer: result.answer.body, notification: result.notification }))
      assert.deepEqual(found, listed(example.id), `${example.id}: differences (DIFFERENCES lists the intended ones)`)
    })
  })
})
