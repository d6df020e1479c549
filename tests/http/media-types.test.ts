// API and payment-page bodies are JSON: application/json (with parameters) or a +json type; anything
// else is 415 http.media.type.not.supported and nothing is written. No Content-Type is accepted only
// with no body (a capture's body is optional).
import assert from 'node:assert/strict'
import http from 'node:http'
import { before, test } from 'node:test'
import {
  BASE_URL,
  assertErrorShape,
  billRequest,
  cardPayment,
  client,
  newSite,
  request,
  twoStepPayment,
  uid,
} from '../support/api.ts'
import { assertDocumented } from '../support/openapi-check.ts'

let api: ReturnType<typeof client>
before(async () => {
  api = client(await newSite('media'))
})

const body = JSON.stringify(cardPayment())

/** a PUT with a body and no Content-Type at all (fetch would add text/plain) */
function putWithoutType(path: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, BASE_URL), {
      method: 'PUT',
      agent: false,
      headers: { Authorization: `Bearer ${api.site.token}`, 'Content-Length': Buffer.byteLength(body) },
    })
    req.on('response', (res) => {
      let text = ''
      res.on('data', (c) => (text += c))
      res.on('end', () => {
        try {
          assertDocumented({
            method: 'PUT',
            path,
            status: res.statusCode!,
            headers: res.headers as Record<string, string | undefined>,
            text,
          })
          resolve({ status: res.statusCode!, body: JSON.parse(text) })
        } catch (e) {
          reject(e)
        }
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

test('text/plain, form encoding or no type with a JSON body: 415, nothing written', async () => {
  for (const type of [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonx',
  ]) {
    const id = uid('pay')
    const r = await api.send('PUT', `/payments/${id}`, { rawBody: body, headers: { 'Content-Type': type } })
    assertErrorShape(r, 415, 'http.media.type.not.supported')
    assert.equal((await api.get(`/payments/${id}`)).status, 404, type)
  }
  const id = uid('pay')
  const untyped = await putWithoutType(`/api/sites/${api.site.siteId}/payments/${id}`)
  assert.equal(untyped.status, 415)
  assert.equal(untyped.body.errorCode, 'http.media.type.not.supported')
  assert.equal((await api.get(`/payments/${id}`)).status, 404)
})

test('application/json with parameters, any case, and +json types are accepted', async () => {
  for (const type of [
    'application/json',
    'application/json;charset=UTF-8',
    'Application/JSON; charset=utf-8',
    'application/vnd.payin+json',
    'application/vnd.my_app+json',
  ]) {
    const r = await api.send('PUT', `/payments/${uid('pay')}`, { rawBody: body, headers: { 'Content-Type': type } })
    assert.equal(r.status, 200, `${type}: ${r.text}`)
  }
})

test('an optional body may be absent whatever the type says; the payment page refuses non-JSON too', async () => {
  const p = await api.newPayment(twoStepPayment())
  const r = await request('PUT', `/api/sites/${api.site.siteId}/payments/${p}/captures/${uid('cap')}`, {
    token: api.site.token,
  })
  assert.equal(r.status, 200, r.text)
  // what fetch(…, {body: ''}) or curl -d '' send
  for (const type of ['text/plain;charset=UTF-8', 'application/x-www-form-urlencoded']) {
    const q = await api.newPayment(twoStepPayment())
    const empty = await api.send('PUT', `/payments/${q}/captures/${uid('cap')}`, {
      rawBody: '',
      headers: { 'Content-Type': type },
    })
    assert.equal(empty.status, 200, `${type}: ${empty.text}`)
  }
  const bill = (await api.put(`/bills/${uid('bill')}`, billRequest())).body
  const form = await request('POST', `/pay/${bill.invoiceUid}/attempts`, {
    rawBody: 'method=card',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  })
  assertErrorShape(form, 415, 'http.media.type.not.supported')
})
