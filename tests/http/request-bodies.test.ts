// Bodies are read up to 64 KiB and no further, whatever the transfer encoding: chunked posts of
// several MiB to every kind of endpoint (API, payment page, emulated 3-D Secure pages) are refused with
// 413 (or the connection is closed), and the server's memory does not grow by their size (measured on an
// instance of this file's own: the suite's server also serves the files running beside this one).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import { after, before, test } from 'node:test'
import { BASE_URL, billRequest, client, newSite, uid } from '../support/api.ts'
import { startInstance, type Instance } from '../support/instances.ts'
import { assertDocumented } from '../support/openapi-check.ts'

/** resident memory of a process group (an instance's), in bytes (Linux /proc) */
function groupRss(pgid: number): number {
  let total = 0
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      // fields after the name: state(0) ppid(1) pgrp(2) … rss in pages (21)
      if (Number(fields[2]) === pgid) total += Number(fields[21]) * 4096
    } catch {
      // the process ended meanwhile: nothing to count
    }
  }
  return total
}

/**
 * Sends `mib` MiB in 64 KiB chunks without a Content-Length (chunked), stopping as soon as the server
 * has answered or closed; the status, or 'closed'. The answer is checked against the OpenAPI document
 * (an error under /api is the JSON Error with its trace id). A fresh connection, never reused.
 */
function chunkedPost(
  path: string,
  headers: Record<string, string>,
  mib: number,
  method = 'POST',
  base = BASE_URL,
): Promise<number | 'closed'> {
  const url = new URL(path, base)
  return new Promise((resolve, reject) => {
    let done = false
    const finish = (r: number | 'closed' | Error) => {
      if (done) return
      done = true
      clearTimeout(timer)
      req.destroy()
      if (r instanceof Error) reject(r)
      else resolve(r)
    }
    const timer = setTimeout(() => {
      done = true
      req.destroy()
      reject(new Error(`${path}: neither an answer nor a close within 20 s`))
    }, 20_000)
    const req = http.request(url, { method, agent: false, headers: { ...headers, 'Transfer-Encoding': 'chunked' } })
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c) => (text += c))
      res.on('end', () => {
        try {
          assertDocumented({
            method,
            path,
            status: res.statusCode!,
            headers: res.headers as Record<string, string | undefined>,
            text,
          })
          finish(res.statusCode!)
        } catch (e) {
          finish(e as Error)
        }
      })
    })
    req.on('error', () => finish('closed'))
    req.on('close', () => finish('closed'))
    const chunk = Buffer.alloc(64 * 1024, 'a')
    let sent = 0
    const pump = () => {
      while (!done && sent < mib * 16) {
        sent++
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      if (!done) req.end()
    }
    pump()
  })
}

let invoiceUid: string
let api: ReturnType<typeof client>
let instance: Instance | undefined
before(async () => {
  api = client(await newSite('bodies'))
  invoiceUid = (await api.put(`/bills/${uid('bill')}`, billRequest())).body.invoiceUid
})
after(async () => {
  instance?.kill()
  await instance?.exited
})

test('chunked posts of several MiB are refused at 64 KiB everywhere, and the server does not hold them', async (t) => {
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' }
  const json = { 'Content-Type': 'application/json' }
  const targets: [string, Record<string, string>, string?][] = [
    ['/acs', form],
    ['/acs/result', form],
    [`/pay/${invoiceUid}/3ds-return`, form],
    [`/pay/${invoiceUid}/attempts`, json],
    [
      `/api/sites/${api.site.siteId}/payments/${uid('pay')}`,
      { ...json, Authorization: `Bearer ${api.site.token}` },
      'PUT',
    ],
  ]
  // the instance serves these requests alone, as the suite's server would (no scheduler, no worker)
  instance = await startInstance(Number(new URL(BASE_URL).port) + 185, {
    SCHEDULER: 'off',
    PAGE_CLIENT_ATTEMPTS: '100000',
  })
  const rss = () => groupRss(instance!.proc.pid!)
  // every path served once with a small body first: what loading its code costs is not counted
  for (const [path, headers, method] of targets) await chunkedPost(path, headers, 0, method, instance.base)
  const before = rss()
  assert.ok(before > 0, "the instance's process group is found")
  for (const [path, headers, method] of targets) {
    // six at once per endpoint, 6 MiB each
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => chunkedPost(path, headers, 6, method, instance!.base)),
    )
    for (const a of answers) assert.ok(a === 413 || a === 'closed', `${path}: ${a}`)
  }
  const grown = rss() - before
  t.diagnostic(
    `server memory: ${Math.round(before / 1048576)} MiB before, grown by ${(grown / 1048576).toFixed(1)} MiB after 180 MiB of posts`,
  )
  // a server that buffered them would grow by far more than this
  assert.ok(grown < 32 * 1024 * 1024, `the server grew by ${Math.round(grown / 1048576)} MiB`)
})

test('the page proxy copies at most 64 KiB of a body (next.config.mjs); a large post to a page answers, not a 5xx', async () => {
  for (const path of [`/pay/${invoiceUid}`, '/']) {
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => chunkedPost(path, { 'Content-Type': 'application/x-www-form-urlencoded' }, 6)),
    )
    for (const a of answers) assert.ok(a === 'closed' || a < 500, `${path}: ${a}`)
  }
})
