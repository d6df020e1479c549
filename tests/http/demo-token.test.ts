// The demo site's token as `npm start` keeps it (scripts/demo-site.ts, on the suite's database and server): made
// with the site, it is written to its file (mode 0600), whose content works as a bearer token; a restart finds it
// there and says so; a revoked or lost one is told, with the command that makes another; a file left by another
// database is replaced. The framed summary that ends a start names the service, the dashboard, the site, the token
// and the next commands. (A real `npm run dev` start does all this too: tests/http/dev-mode.test.ts.)
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { promisify } from 'node:util'
import { demoSiteAtStart, demoTokenFile, demoTokenLine, framed, startSummary } from '../../scripts/demo-site.ts'
import { BASE_URL, request, uid } from '../support/api.ts'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payin-demo-token-'))
after(async () => {
  fs.rmSync(dir, { recursive: true, force: true })
  const { closeDb } = await import('../../lib/db/client.ts')
  await closeDb()
})

test('made with the site: kept in its file (0600), a working bearer token; a restart says where it is', async () => {
  const siteId = uid('demo-token')
  const file = demoTokenFile(siteId, dir)
  assert.equal(path.basename(file), `demo-${siteId}.token`)
  assert.equal(demoTokenFile('demo'), path.join('data', 'demo.token'))
  // a file left by another database (and readable by all) is replaced
  fs.writeFileSync(file, 'sk_of_another_database\n', { mode: 0o644 })

  const first = await demoSiteAtStart(siteId, file)
  assert.equal(first.state, 'made')
  const token = first.state === 'made' ? first.token : ''
  assert.match(token, /^sk_[\w-]{43}$/)
  assert.equal(fs.statSync(file).mode & 0o777, 0o600)
  const content = fs.readFileSync(file, 'utf8')
  assert.equal(content, `${token}\n`)
  // the file's content as it is (what `$(cat …)` gives, too) opens the API: a payment that does not exist, not a 401
  const answer = await request('GET', `/api/sites/${siteId}/payments/none`, {
    headers: { Authorization: `Bearer ${content}` },
  })
  assert.equal(answer.status, 404, answer.text)
  assert.equal(answer.body.errorCode, 'payin.resource.not.found')
  assert.match(demoTokenLine(siteId, file, first), new RegExp(`^demo site token: ${token} \\(shown once, and kept in `))

  // a restart: the site exists, its token is in the file
  const again = await demoSiteAtStart(siteId, file)
  assert.deepEqual(again, { state: 'kept' })
  assert.equal(demoTokenLine(siteId, file, again), `demo site token: in ${file} (made at the first start)`)
  const summary = startSummary({ base: BASE_URL, siteId, file, token: again })
  assert.ok(summary.includes(`token       in ${file}`), summary)
  assert.ok(summary.includes(`export BASE=${BASE_URL}/api SITE=${siteId} TOKEN=$(cat ${file})`), summary)
  assert.ok(!summary.includes(token))

  // revoked: told, with the command that makes another
  const { revokeToken } = await import('../../lib/sites/site-tokens.ts')
  assert.equal(await revokeToken(siteId, token), 1)
  const stale = await demoSiteAtStart(siteId, file)
  assert.deepEqual(stale, { state: 'stale' })
  assert.equal(
    demoTokenLine(siteId, file, stale),
    `demo site token: ${file} holds no active token of ${siteId} (revoked, or another database's); ` +
      `make another with: npm run site -- create ${siteId}`,
  )
  // lost
  fs.rmSync(file)
  const missing = await demoSiteAtStart(siteId, file)
  assert.deepEqual(missing, { state: 'missing' })
  const lost = startSummary({ base: BASE_URL, siteId, file, token: missing })
  const make = `npm run --silent site -- create ${siteId} | tail -n 1 > ${file}`
  assert.ok(lost.includes(`${make}   (a new token, kept)`), lost)
  assert.ok(lost.includes(`TOKEN=$(cat ${file})`), lost)
  // the command as printed keeps a token that works, which the next start finds
  await promisify(execFile)('bash', [
    '-c',
    make.replace('npm run --silent site --', `${process.execPath} --import tsx scripts/site.ts`),
  ])
  assert.deepEqual(await demoSiteAtStart(siteId, file), { state: 'kept' })
  assert.equal((fs.statSync(file).mode & 0o777).toString(8), '600')
})

test('the summary: a frame as wide as its longest line, the token of the first start in it', () => {
  const summary = startSummary({
    base: 'http://localhost:3000',
    siteId: 'demo',
    file: 'data/demo.token',
    token: { state: 'made', token: 'sk_x' },
  })
  const lines = summary.split('\n')
  assert.ok(lines.every((l) => l.length === lines[0].length))
  assert.match(lines[0], /^┌─+┐$/)
  assert.match(lines.at(-1)!, /^└─+┘$/)
  for (const text of [
    'API         http://localhost:3000/api',
    'dashboard   http://localhost:3000/dashboard',
    'site id     demo',
    'token       sk_x',
    'export BASE=http://localhost:3000/api SITE=demo TOKEN=$(cat data/demo.token)',
    'npm run webhooks -- listen   (',
  ])
    assert.ok(summary.includes(text), text)
  assert.equal(framed(['ab', 'c']), '┌────┐\n│ ab │\n│ c  │\n└────┘')
})
