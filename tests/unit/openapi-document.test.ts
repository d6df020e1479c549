// The OpenAPI document (lib/openapi/api-document.ts): the committed openapi.json is what the code
// generates; it and its strict variant are valid OpenAPI 3.1 documents; their schemas compile (JSON
// Schema 2020-12, strict) and the examples validate against them; request values read through a
// transform are described as the wire carries them; answers are open in the published document and
// closed in the strict one; and it lists every route of app/api, each served by the route it documents.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { Validator } from '@seriousme/openapi-schema-validator'
import fc from 'fast-check'
import { z } from 'zod'
import {
  API_PREFIXES,
  API_ROUTES,
  apiDocument,
  apiDocumentText,
  apiOperations,
  buildApiDocument,
} from '../../lib/openapi/api-document.ts'
import { parseAmountValue } from '../../lib/money/money.ts'
import { PAYMENT_METHODS, STORED_METHOD_TYPES } from '../../lib/payments/methods/index.ts'
import { AMOUNT_VALUE_PATTERN } from '../../lib/wire/common-schemas.ts'
import { documentValidator } from '../support/openapi-check.ts'

type Json = Record<string, any>

test('openapi.json is the document the code generates', () => {
  const committed = fs.existsSync('openapi.json') ? fs.readFileSync('openapi.json', 'utf8') : ''
  const generated = apiDocumentText()
  if (committed === generated) return
  const at = [...generated].findIndex((c, i) => c !== committed[i])
  assert.fail(
    `openapi.json is not current: run \`npm run openapi\` and commit it (first difference at character ${at}: ${JSON.stringify(generated.slice(Math.max(0, at - 80), at + 80))})`,
  )
})

const VARIANTS = [
  ['published', () => apiDocument() as Json],
  ['strict', () => buildApiDocument({ strict: true }) as Json],
] as const

for (const [variant, document] of VARIANTS)
  test(`it is a valid OpenAPI 3.1 document whose $refs all resolve (${variant})`, async () => {
    const validator = new Validator()
    const result = await validator.validate(structuredClone(document()))
    assert.equal(validator.version, '3.1')
    assert.ok(result.valid, `not valid OpenAPI 3.1: ${JSON.stringify(result.errors, null, 1)}`)
    assert.doesNotThrow(() => validator.resolveRefs())
  })

/** every schema position below `pointer` (properties, items, combinators, …), with its pointer */
function* schemasUnder(schema: unknown, pointer: string): Generator<{ schema: Json; pointer: string }> {
  if (!schema || typeof schema !== 'object') return
  const s = schema as Json
  yield { schema: s, pointer }
  for (const key of ['properties', 'patternProperties', '$defs'])
    for (const [name, sub] of Object.entries((s[key] ?? {}) as Json))
      yield* schemasUnder(sub, `${pointer}/${key}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`)
  for (const key of ['anyOf', 'allOf', 'oneOf', 'prefixItems'])
    for (const [i, sub] of ((s[key] ?? []) as unknown[]).entries()) yield* schemasUnder(sub, `${pointer}/${key}/${i}`)
  for (const key of ['items', 'additionalProperties', 'propertyNames', 'not', 'contains'])
    if (s[key] && typeof s[key] === 'object') yield* schemasUnder(s[key], `${pointer}/${key}`)
}

/** the media types of the document that carry examples: requests and answers of the operations and webhooks */
function* mediaTypes(document: Json): Generator<{ media: Json; pointer: string }> {
  for (const [group, items] of [
    ['paths', document.paths],
    ['webhooks', document.webhooks],
  ] as const)
    for (const [p, item] of Object.entries(items as Json))
      for (const [method, op] of Object.entries(item as Json)) {
        const base = `/${group}/${p.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}`
        const json = op.requestBody?.content?.['application/json']
        if (json) yield { media: json, pointer: `${base}/requestBody/content/application~1json` }
        for (const [status, r] of Object.entries((op.responses ?? {}) as Json)) {
          const rjson = r.content?.['application/json']
          if (rjson) yield { media: rjson, pointer: `${base}/responses/${status}/content/application~1json` }
        }
      }
}

for (const [variant, build] of VARIANTS)
  test(`every schema compiles (JSON Schema 2020-12, strict, formats) and every example is valid against its schema (${variant})`, () => {
    const document = build()
    const { at } = documentValidator(document)
    let examples = 0
    const check = (pointer: string, value: unknown, where: string) => {
      const validate = at(pointer)
      examples++
      assert.ok(
        validate(value),
        `${where}: the example ${JSON.stringify(value).slice(0, 300)} is not valid: ${JSON.stringify(validate.errors)}`,
      )
    }
    for (const name of Object.keys(document.components.schemas))
      for (const { schema, pointer } of schemasUnder(
        document.components.schemas[name],
        `/components/schemas/${name}`,
      )) {
        at(pointer)
        for (const [i, example] of ((schema.examples ?? []) as unknown[]).entries())
          check(pointer, example, `${pointer}/examples/${i}`)
      }
    for (const { media, pointer } of mediaTypes(document)) {
      at(`${pointer}/schema`)
      for (const [name, example] of Object.entries((media.examples ?? {}) as Json))
        check(`${pointer}/schema`, example.value, `${pointer}/examples/${name}`)
    }
    assert.ok(examples > 40, `only ${examples} examples checked`)
  })

test('requests are described as the wire carries them: no value read through a transform is documented as `{}`', () => {
  const document = apiDocument() as Json
  const empty: string[] = []
  for (const [name, component] of Object.entries(document.components.schemas as Json)) {
    // the document's own schema is open on purpose: its parts are the OpenAPI specification's
    if (name === 'OpenApiDocument') continue
    for (const { schema, pointer } of schemasUnder(component, `/components/schemas/${name}`))
      if (Object.keys(schema).length === 0) empty.push(pointer)
  }
  assert.deepEqual(empty, [])
  // the amount value of a request: a decimal as a string or a number, with its pattern and examples
  const value = document.components.schemas.AmountRequest.properties.value
  assert.deepEqual(
    value.anyOf.map((s: Json) => s.type),
    ['string', 'number'],
  )
  assert.ok(value.anyOf[0].pattern && value.examples.length, JSON.stringify(value))
  assert.equal(document.components.schemas.BillRequest.properties.expirationDateTime.type, 'string')
  // one $ref per registered method: the contract's four in their order, and any method added later
  const refs = document.components.schemas.PaymentRequest.properties.paymentMethod.oneOf.map((s: Json) => s.$ref)
  const contract = ['Card', 'Token', 'Recurrent', 'Mobile'].map((t) => `#/components/schemas/${t}PaymentMethod`)
  assert.deepEqual(
    refs.filter((r: string) => contract.includes(r)),
    contract,
  )
  assert.deepEqual(
    refs,
    PAYMENT_METHODS.map((m) => `#/components/schemas/${z.globalRegistry.get(m.schema)?.id}`),
  )
})

test("answers are closed in the strict variant: every object of an answer's schema says additionalProperties false", () => {
  const document = buildApiDocument({ strict: true }) as Json
  const answers = new Set<string>(['Error'])
  for (const { media, pointer } of mediaTypes(document))
    if (pointer.includes('/responses/200/') && media.schema.$ref) answers.add(media.schema.$ref.split('/').pop()!)
  answers.delete('OpenApiDocument')
  const open: string[] = []
  const seen = new Set<string>()
  const visit = (name: string) => {
    if (seen.has(name)) return
    seen.add(name)
    for (const { schema, pointer } of schemasUnder(document.components.schemas[name], `/components/schemas/${name}`)) {
      // a rule between the object's fields (exactRules: if/then/else in its allOf) describes no object of its own
      if (
        schema.type === 'object' &&
        schema.additionalProperties !== false &&
        !schema.propertyNames &&
        !('if' in schema)
      )
        open.push(pointer)
      if (typeof schema.$ref === 'string') visit(schema.$ref.split('/').pop()!)
    }
  }
  for (const name of answers) visit(name)
  assert.ok(seen.has('Payment') && seen.has('Bill') && seen.has('Notification') && seen.has('PaymentNotification'))
  assert.deepEqual(open, [])
})

test('answers are open in the published document: no closed object, no pattern for a date-time, the open enumerations a string with examples', () => {
  const document = apiDocument() as Json
  const strict = buildApiDocument({ strict: true }) as Json
  const closed: string[] = []
  for (const [name, component] of Object.entries(document.components.schemas as Json))
    for (const { schema, pointer } of schemasUnder(component, `/components/schemas/${name}`))
      if (schema.additionalProperties === false) closed.push(pointer)
  assert.deepEqual(closed, [])
  for (const id of ['PaymentDateTime', 'BillDateTime', 'NotificationDateTime']) {
    assert.equal(document.components.schemas[id].format, 'date-time', id)
    assert.equal(document.components.schemas[id].pattern, undefined, id)
    assert.ok(strict.components.schemas[id].pattern, `${id}: the strict variant keeps the exact form`)
  }
  const schemas = document.components.schemas
  for (const [where, values] of [
    [schemas.Payment.properties.flags.items, ['SALE', 'BIND_PAYMENT_TOKEN', 'RECURRENT_FIRST']],
    [schemas.Refund.properties.flags.items, ['REVERSAL']],
    [schemas.Error.properties.errorCode, undefined],
    [schemas.Status.properties.reason, undefined],
    // the registered methods' stored types: the contract's three first, in their order
    [schemas.PaymentMethod.properties.type, STORED_METHOD_TYPES],
  ] as [Json, string[] | undefined][]) {
    assert.equal(where.type, 'string', JSON.stringify(where))
    assert.equal(where.enum ?? where.const, undefined, JSON.stringify(where))
    assert.ok(where.examples.length > 0)
    if (values) assert.deepEqual(where.examples, values)
    if (values === STORED_METHOD_TYPES) assert.deepEqual(values.slice(0, 3), ['CARD', 'TOKEN', 'MOBILE'])
  }
  // required: what production sends too (its bills leave out siteId, flags and creationDateTime)
  assert.deepEqual(schemas.Bill.required, ['billId', 'invoiceUid', 'amount', 'status', 'expirationDateTime', 'payUrl'])
  assert.deepEqual(strict.components.schemas.Bill.required, [
    'siteId',
    'billId',
    'invoiceUid',
    'amount',
    'flags',
    'status',
    'creationDateTime',
    'expirationDateTime',
    'payUrl',
  ])
  assert.ok(!schemas.BillDetailsPayment.required.includes('siteId'))
  assert.ok(strict.components.schemas.BillDetailsPayment.required.includes('siteId'))
  // an error response's codes are examples in the published document, the exact list in the strict one
  assert.deepEqual(
    document.components.responses.PayinResourceNotFound.content['application/json'].schema.allOf[1].properties
      .errorCode,
    { examples: ['payin.resource.not.found'] },
  )
  assert.deepEqual(
    strict.components.responses.PayinResourceNotFound.content['application/json'].schema.allOf[1].properties.errorCode,
    { enum: ['payin.resource.not.found'] },
  )
})

test('a $ref says nothing else but words (a copy of a component is the component, in either variant)', () => {
  for (const [variant, build] of VARIANTS) {
    const found: string[] = []
    const visit = (node: unknown, pointer: string) => {
      if (!node || typeof node !== 'object') return
      const o = node as Json
      if (typeof o.$ref === 'string')
        for (const key of Object.keys(o))
          if (!['$ref', 'description', 'summary', 'examples'].includes(key)) found.push(`${pointer}/${key}`)
      for (const [k, v] of Object.entries(o)) visit(v, `${pointer}/${k}`)
    }
    visit(build(), '')
    assert.deepEqual(found, [], variant)
  }
})

test('every route of app/api is documented, by the route its route.ts serves', async () => {
  const found: string[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(p)
      else if (entry.name === 'route.ts') found.push(p)
    }
  }
  walk('app/api')
  // the catch-all 404 and the benchmark's bounds (a 404 outside a benchmark) are no operations
  const files = found.filter((f) => !f.includes('[...path]') && !f.includes('bench-empty'))
  const templates = files.map((f) =>
    `/${path.relative('app/api', path.dirname(f)).split(path.sep).join('/')}`.replace(/\[(\w+)\]/g, '{$1}'),
  )
  assert.deepEqual([...templates].sort(), Object.keys(API_ROUTES).sort())
  for (const [i, file] of files.entries()) {
    const module = await import(path.resolve(file))
    const route = API_ROUTES[templates[i]]
    for (const method of ['GET', 'PUT', 'POST', 'PATCH', 'DELETE', 'OPTIONS'] as const)
      assert.equal(module[method], route[method], `${file} ${method}`)
  }
})

test("the document's servers are the prefixes the service answers under (next.config.mjs rewrites the partner ones to /api)", async () => {
  const configFile = '../../next.config.mjs'
  const nextConfig = (await import(configFile)).default as {
    rewrites(): Promise<{ beforeFiles: { source: string; destination: string }[] }>
  }
  const rewrites = await nextConfig.rewrites()
  const partner = rewrites.beforeFiles
    .filter((r) => r.destination === '/api/:path*')
    .map((r) => r.source.replace('/:path*', ''))
  assert.deepEqual([...API_PREFIXES], ['/api', ...partner])
  // relative first, resolved against where the document was fetched (a generator given https://host/api/openapi.json
  // targets that host), then one on a given origin for a copy read elsewhere
  assert.deepEqual(
    (apiDocument().servers as { url: string }[]).map((s) => s.url),
    [...API_PREFIXES, '{origin}/api'],
  )
  assert.equal(
    new URL((apiDocument().servers as { url: string }[])[0].url, 'https://pay.example.com/api/openapi.json').href,
    'https://pay.example.com/api',
  )
})

test('every operation documents its errors by status, in the Error shape with the codes of that status', () => {
  const document = buildApiDocument({ strict: true }) as Json
  for (const [p, item] of Object.entries(document.paths as Json))
    for (const [method, op] of Object.entries(item as Json)) {
      const statuses = Object.keys(op.responses)
      assert.ok(statuses.includes('200') && statuses.includes('500'), `${method} ${p}: ${statuses}`)
      const site = op.security === undefined
      if (site)
        for (const s of ['400', '401', '403', '429']) assert.ok(statuses.includes(s), `${method} ${p} lacks ${s}`)
      if (op.requestBody) for (const s of ['413', '415']) assert.ok(statuses.includes(s), `${method} ${p} lacks ${s}`)
      for (const status of statuses.filter((s) => s !== '200')) {
        const name = op.responses[status].$ref.split('/').pop()
        const codes: string[] =
          document.components.responses[name].content['application/json'].schema.allOf[1].properties.errorCode.enum
        assert.ok(codes.length > 0)
      }
    }
  assert.deepEqual(
    Object.keys(document.paths).flatMap((p) => Object.keys(document.paths[p]).map((m) => `${m.toUpperCase()} ${p}`)),
    [
      'GET /sites/{siteId}/payments/{paymentId}',
      'PUT /sites/{siteId}/payments/{paymentId}',
      'POST /sites/{siteId}/payments/{paymentId}/complete',
      'GET /sites/{siteId}/payments/{paymentId}/captures/{captureId}',
      'PUT /sites/{siteId}/payments/{paymentId}/captures/{captureId}',
      'GET /sites/{siteId}/payments/{paymentId}/refunds/{refundId}',
      'PUT /sites/{siteId}/payments/{paymentId}/refunds/{refundId}',
      'POST /sites/{siteId}/payments/{paymentId}/refunds/{refundId}/decline',
      'GET /sites/{siteId}/payments/{paymentId}/refunds',
      'GET /sites/{siteId}/bills/{billId}',
      'PUT /sites/{siteId}/bills/{billId}',
      'GET /sites/{siteId}/bills/{billId}/details',
      'GET /sites/{siteId}/notifications',
      'POST /sites/{siteId}/notifications/{notificationId}/resend',
      'GET /sites/{siteId}/sandbox/clock',
      'POST /sites/{siteId}/sandbox/clock/advance',
      'POST /sites/{siteId}/sandbox/reset',
      'POST /sites/{siteId}/sbp/qrCodes',
      'GET /sites/{siteId}/sbp/qrCodes/{qrCodeUid}',
      'PUT /sites/{siteId}/sbp/qrCodes/{qrCodeUid}',
      'POST /sites/{siteId}/sbp/qrCodes/{qrCodeUid}/payments',
      'POST /sites/{siteId}/sandbox/sbp/{qrCodeUid}/pay',
      'POST /sites/{siteId}/sandbox/sbp/{qrCodeUid}/decline',
      'GET /sites/{siteId}/validation/card/requests/{requestUid}',
      'PUT /sites/{siteId}/validation/card/requests/{requestUid}',
      'POST /sites/{siteId}/validation/card/requests/{requestUid}/complete',
      'GET /health',
      'GET /ready',
      'GET /metrics',
      'GET /openapi.json',
    ],
  )
})

test("the amount value's string pattern is exactly what the service accepts (parseAmountValue)", () => {
  const pattern = new RegExp(AMOUNT_VALUE_PATTERN)
  const agree = (s: string) =>
    assert.equal(
      pattern.test(s),
      parseAmountValue(s).ok,
      `${JSON.stringify(s)}: the pattern says ${pattern.test(s)}, the service ${parseAmountValue(s).ok}`,
    )
  for (const s of [
    '1',
    '0.01',
    '0.009',
    '0.1',
    '00.10',
    '0',
    '0.00',
    '1000000000',
    '1000000000.0',
    '1000000000.009',
    '1000000000.01',
    '999999999.999',
    '0001000000000.00',
    '10000000000',
    '1e2',
    '-1',
    '.5',
    '5.',
    ' 1',
  ])
    agree(s)
  fc.assert(
    fc.property(fc.stringMatching(/^-?[0-9]{0,12}(\.[0-9]{0,4})?$/), (s) => agree(s)),
    { numRuns: 20_000, seed: 42 },
  )
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 200_000_000_000n }), fc.integer({ min: 0, max: 3 }), (n, zeros) => {
      const t = n.toString().padStart(3, '0')
      agree(`${'0'.repeat(zeros)}${t.slice(0, -3)}.${t.slice(-3)}`)
    }),
    { numRuns: 20_000, seed: 7 },
  )
})

test('request schemas: the document accepts what the service accepts and refuses what it refuses', () => {
  const document = apiDocument() as Json
  const { at } = documentValidator(document)
  const card = { type: 'CARD', pan: '4111111111111111', expiryDate: '12/30', cvv2: '123' }
  const payment = (over: Record<string, unknown>) => ({
    paymentMethod: card,
    amount: { value: '10.00', currency: 'RUB' },
    ...over,
  })
  const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, 'v']))
  const bill = (over: Record<string, unknown>) => ({
    amount: { value: '10.00', currency: 'RUB' },
    expirationDateTime: '2026-12-01T10:00:00Z',
    ...over,
  })
  const cases: [string, string, unknown][] = [
    ['completePayment', 'nothing to complete with', {}],
    ['completePayment', 'a one-time code', { otp: { code: '1234' } }],
    ['completePayment', 'a PaRes', { threeDS: { pares: 'x' } }],
    ['createPayment', 'a plain payment', payment({})],
    [
      'createPayment',
      'an amount that rounds down to 0.00 (string)',
      payment({ amount: { value: '0.001', currency: 'RUB' } }),
    ],
    [
      'createPayment',
      'an amount that rounds down to 0.00 (number)',
      payment({ amount: { value: 0.009, currency: 'RUB' } }),
    ],
    ['createPayment', 'the least amount (number)', payment({ amount: { value: 0.01, currency: 'RUB' } })],
    [
      'createPayment',
      'an amount that rounds down to the most (number)',
      payment({ amount: { value: 1000000000.001, currency: 'RUB' } }),
    ],
    [
      'createPayment',
      'an amount that rounds down to the most (string)',
      payment({ amount: { value: '1000000000.009', currency: 'RUB' } }),
    ],
    ['createPayment', 'an amount over the most', payment({ amount: { value: '1000000000.01', currency: 'RUB' } })],
    [
      'createPayment',
      'an amount over the most (number)',
      payment({ amount: { value: 1000000000.01, currency: 'RUB' } }),
    ],
    ['createPayment', 'an unknown currency', payment({ amount: { value: '10.00', currency: 'XYZ' } })],
    ['createPayment', 'a lowercase currency', payment({ amount: { value: '10.00', currency: 'rub' } })],
    ['createPayment', 'another known currency', payment({ amount: { value: '10.00', currency: 'KZT' } })],
    [
      'createPayment',
      'a callback URL with non-ASCII characters (an IRI)',
      payment({ callbackUrl: 'https://магазин.example/уведомления?заказ=1' }),
    ],
    [
      'createPayment',
      "a callback URL with '|' in its query",
      payment({ callbackUrl: 'https://shop.example/notify?a=1|2' }),
    ],
    ['createPayment', 'a callback URL that is not http(s)', payment({ callbackUrl: 'ftp://shop.example/notify' })],
    [
      'createPayment',
      'a callback URL with its scheme in capitals',
      payment({ callbackUrl: 'HTTPS://shop.example/notify' }),
    ],
    ['createBill', 'a bill', bill({})],
    ['createBill', 'a bill with 32 custom fields', bill({ customFields: fields(32) })],
    ['createBill', 'a bill with 33 custom fields', bill({ customFields: fields(33) })],
    [
      'createBill',
      'return URLs with non-ASCII characters',
      bill({ successUrl: 'https://shop.example/спасибо', failedUrl: 'https://shop.example/fail?x=|' }),
    ],
  ]
  const operations = new Map(apiOperations().map((o) => [o.endpoint.doc!.operationId, o]))
  for (const [operationId, what, body] of cases) {
    const o = operations.get(operationId)!
    const service = z.safeParse(o.endpoint.body!, body).success
    const pointer = `/paths/${o.path.replaceAll('~', '~0').replaceAll('/', '~1')}/${o.method.toLowerCase()}/requestBody/content/application~1json/schema`
    const validate = at(pointer)
    assert.equal(
      validate(body),
      service,
      `${operationId}, ${what}: the service ${service ? 'accepts' : 'refuses'} it, the document ${service ? 'refuses' : 'accepts'} it ${JSON.stringify(validate.errors ?? [])}`,
    )
  }
})
