// `npm run site`: create prints a working token alone on the last line; revoke makes it a 401;
// tokens are stored hashed.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { test } from 'node:test'
import pg from 'pg'
import { assertErrorShape, request, uid } from '../support/api.ts'

const site = (...args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/site.ts', ...args], { encoding: 'utf8', env: process.env, stdio: ['ignore', 'pipe', 'pipe'] })

test('create, use, list and revoke a token', async () => {
  const siteId = uid('cli')
  const out = site('create', siteId).trimEnd().split('\n')
  const token = out[out.length - 1]
  assert.match(token, /^sk_[A-Za-z0-9_-]{43}$/)

  const known = await request('GET', `/api/sites/${siteId}/payments/nothing-here`, { token })
  assertErrorShape(known, 404, 'payin.resource.not.found')

  const db = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await db.connect()
  try {
    const { rows } = await db.query('SELECT "tokenHash" FROM "SiteToken" WHERE "siteId" = $1', [siteId])
    assert.equal(rows.length, 1)
    assert.notEqual(rows[0].tokenHash, token)
    const all = await db.query(`SELECT count(*)::int AS n FROM "SiteToken" WHERE "tokenHash" = $1 OR hint = $1`, [token])
    assert.equal(all.rows[0].n, 0, 'the token itself is not stored')
  } finally {
    await db.end()
  }

  const second = site('create', siteId).trimEnd().split('\n').at(-1)!
  assert.notEqual(second, token, 'a site may hold several tokens')
  assert.match(site('list'), new RegExp(`${siteId}\\n  sk_`))

  site('revoke', siteId, token)
  assertErrorShape(await request('GET', `/api/sites/${siteId}/payments/nothing-here`, { token }), 401, 'auth.unauthorized')
  assertErrorShape(await request('GET', `/api/sites/${siteId}/payments/nothing-here`, { token: second }), 404, 'payin.resource.not.found')
})

test('site ids are checked', () => {
  assert.throws(() => site('create', 'bad id!'))
})
