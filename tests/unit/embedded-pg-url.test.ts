// The embedded PostgreSQL's URL carries its password; what is printed of a database URL never does
// (redactDatabaseUrl). The password file lies beside the data folder, not in it.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { embeddedDatabaseUrl, embeddedPasswordFile, redactDatabaseUrl } from '../../lib/db/embedded-postgres.ts'

const password = 'ab'.repeat(32)

test("the embedded database's URL carries its password, and its printed form does not", () => {
  const url = embeddedDatabaseUrl({ port: 54329, database: 'payin', password })
  assert.equal(url, `postgresql://postgres:${password}@127.0.0.1:54329/payin`)
  assert.equal(redactDatabaseUrl(url), 'postgresql://postgres:***@127.0.0.1:54329/payin')
  // a password of one's own in DATABASE_URL, with characters URLs escape, and a query
  const own = 'postgresql://app:p%40ss%2Fw0rd@db.internal:5432/payin?sslmode=require'
  assert.equal(redactDatabaseUrl(own), 'postgresql://app:***@db.internal:5432/payin?sslmode=require')
  // none to hide: as it is
  assert.equal(
    redactDatabaseUrl('postgresql://postgres@127.0.0.1:5432/payin'),
    'postgresql://postgres@127.0.0.1:5432/payin',
  )
  // not a URL the parser takes: the part between ':' and '@' hidden all the same
  assert.equal(redactDatabaseUrl('postgresql://u:se cret@[bad/payin'), 'postgresql://u:***@[bad/payin')
})

test('the password file lies beside the data folder', () => {
  assert.equal(embeddedPasswordFile('data/pg'), 'data/pg.password')
  assert.equal(embeddedPasswordFile('data/pg/'), 'data/pg.password')
  assert.equal(embeddedPasswordFile('/srv/payin/data/test-pg'), '/srv/payin/data/test-pg.password')
})
