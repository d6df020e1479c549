// Card numbers sent where no card number belongs (headers, paths, queries, Server Action ids, a
// refused request target) never reach the server's output unmasked: not our request log lines and not
// Next.js's own console output, which prints an unknown Server Action id as it received it. Every line
// the server process writes passes the request log's masking (lib/http/masked-output.ts).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import net from 'node:net'
import { test } from 'node:test'
import { BASE_URL, billRequest, client, newSite, uid } from '../support/api.ts'
import { writtenForms } from '../support/card-numbers.ts'

const PANS = ['4242424242424242', '5555555555554444', '378282246310005', '6011111111111117']
/** the number in groups of four, joined by `separator` */
const grouped = (pan: string, separator: string) => pan.replace(/(\d{4})(?=\d)/g, `$1${separator}`)
const spaced = (pan: string) => grouped(pan, ' ')

/** the server log's text written since `offset` (a byte position) */
const logSince = (offset: number) => fs.readFileSync(process.env.SERVER_LOG!).subarray(offset).toString('utf8')

/** a raw request line (a target no URL client sends as it is), answered; the connection closes after */
function rawGet(target: string): Promise<void> {
  const { hostname, port } = new URL(BASE_URL)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () =>
      socket.end(`GET ${target} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`),
    )
    socket.on('data', () => {})
    socket.on('error', reject)
    socket.on('close', () => resolve())
  })
}

test('card numbers in headers, paths, queries and Server Action ids: masked in every line the server writes', async () => {
  const site = await newSite('masking')
  const bill = await client(site).put(`/bills/${uid('b')}`, billRequest())
  const offset = fs.statSync(process.env.SERVER_LOG!).size
  const send = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${BASE_URL}${path}`, { redirect: 'manual', ...init })
    await res.arrayBuffer()
    return res.status
  }
  for (const pan of PANS) {
    // headers, on the API and on pages
    const headers = {
      'X-Card': pan,
      'User-Agent': `shop ${spaced(pan)}`,
      Referer: `https://shop.example/${pan}`,
      Cookie: `payin_dashboard=${pan}`,
      'Next-Router-State-Tree': `["${pan}"]`,
      RSC: '1',
    }
    await send('/docs', { headers })
    await send(`/pay/${bill.body.invoiceUid}`, { headers })
    await send(`/api/sites/${site.siteId}/payments/x`, { headers: { ...headers, Authorization: `Bearer ${pan}` } })
    // paths and queries
    for (const path of [
      `/api/sites/${pan}/payments/${pan}`,
      `/api/sites/${site.siteId}/bills/${spaced(pan)}`,
      `/pay/${pan}`,
      `/pay/${bill.body.invoiceUid}/attempts/${pan}`,
      `/${pan}`,
      `/dashboard/${pan}`,
      `/acs/${pan}`,
    ])
      await send(encodeURI(path), { headers: { Authorization: `Bearer ${site.token}` } })
    for (const query of [
      `/docs?pan=${pan}`,
      `/pay/${bill.body.invoiceUid}?card=${pan}`,
      `/dashboard/payments?q=${pan}&cursor=${pan}`,
      `/api/health?${pan}`,
    ])
      await send(query)
    // Server Action ids: in the header, and in a form's field name (a page posted without JavaScript)
    for (const page of ['/', '/docs', `/pay/${bill.body.invoiceUid}`, '/dashboard/payments', '/dashboard/sign-in'])
      await send(page, {
        method: 'POST',
        headers: { 'Next-Action': pan, 'Content-Type': 'text/plain;charset=UTF-8' },
        body: '[]',
      })
    const form = new FormData()
    form.set(`$ACTION_ID_${pan}`, '')
    await send('/docs', { method: 'POST', body: form })
    // written with other separators, and percent-encoded in a path or an action id
    for (const separator of ['.', '_', '-', '  ', '\t', '/'])
      await send('/dashboard', {
        method: 'POST',
        headers: { 'Next-Action': grouped(pan, separator), 'Content-Type': 'text/plain;charset=UTF-8' },
        body: '[]',
      })
    for (const separator of [
      '%20',
      '%2D',
      '%2e',
      '%5F',
      ',',
      ':',
      '%2C',
      '%3A',
      '%C2%A0',
      '%0A',
      '%20-%20',
      ';',
      '|',
      '\t',
      '"',
      '\\',
      '""',
    ])
      await send('/dashboard', {
        method: 'POST',
        headers: { 'Next-Action': grouped(pan, separator), 'Content-Type': 'text/plain;charset=UTF-8' },
        body: '[]',
      })
    await send(`/api/sites/${site.siteId}/payments/${grouped(pan, '%20')}`, {
      headers: { Authorization: `Bearer ${site.token}` },
    })
    await send(`/pay/${grouped(pan, '.')}`)
    // digits percent-encoded or full-width
    const encoded = pan
      .split('')
      .map((d) => `%3${d}`)
      .join('')
    const fullWidth = pan
      .split('')
      .map((d) => String.fromCharCode(0xff10 + Number(d)))
      .join('')
    await send(`/api/sites/${site.siteId}/payments/${encoded}`, { headers: { Authorization: `Bearer ${site.token}` } })
    await send(`/pay/${encodeURIComponent(fullWidth)}`)
    await rawGet(`/x%00?c=${grouped(pan, '%2C')}`)
    // a target the front door refuses, its separators escaped in the log line (a quote twice: four characters there)
    await rawGet(`/${grouped(pan, '""')}#`)
    await rawGet(`/${grouped(pan, '\\')}#`)
    // a target the front door refuses, logged as received
    await rawGet(`/api/sites/${pan}/payments/%zz${pan}`)
  }
  // the last request's log line: once it is written, so is everything the earlier requests made the server
  // print (each printed before its answer, on the same process's synchronous output)
  const marker = uid('marker')
  await send(`/api/${marker}`)
  for (const deadline = Date.now() + 20_000; !logSince(offset).includes(marker);) {
    if (Date.now() > deadline) throw new Error('the marker request was not logged within 20 s')
    await new Promise((r) => setTimeout(r, 25))
  }
  const output = logSince(offset)
  // Next.js did print the ids it refused (so the check below reads what it wrote, masked)
  // (in production as a JSON line of its console output: the quotes escaped)
  assert.match(output, /Server Reference ID did not match the expected format\. Received \\?"\[redacted\]\\?"/)
  assert.match(output, /Failed to find Server Action/)
  for (const pan of PANS) assert.doesNotMatch(output, writtenForms(pan), `${pan.slice(0, 6)}… in the server's output`)
})
