// For the test suite only: with STATEMENT_LOG_DIR set, each process writes every distinct statement text its
// database connections send to a file of its own there (statements-<pid>.log, one JSON string per line), so that
// tests/after/site-scoped-statements.test.ts can check that every statement on a site's data names the site. Texts
// only: the values travel as parameters and are never written. Unset (production), nothing is recorded.
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'

/** enough for every template the service has, with room; past it, texts are no longer recorded */
const MAX_TEXTS = 5000

/** written once in place of the texts past MAX_TEXTS, so that the check knows it did not see them all */
export const STATEMENT_LOG_FULL = '-- statement log full --'

const seen = new Set<string>()

function record(text: unknown): void {
  const dir = process.env.STATEMENT_LOG_DIR
  if (!dir || typeof text !== 'string' || seen.has(text)) return
  const full = seen.size >= MAX_TEXTS
  if (full && seen.has(STATEMENT_LOG_FULL)) return
  const line = full ? STATEMENT_LOG_FULL : text
  seen.add(line)
  fs.appendFileSync(path.join(dir, `statements-${process.pid}.log`), `${JSON.stringify(line)}\n`)
}

/** the text a pg query call carries: a string, or a config object's `text` */
function textOf(first: unknown): unknown {
  return typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text
}

/** records the statements of each connection `pool` opens from now on, when STATEMENT_LOG_DIR is set */
export function recordStatements(pool: pg.Pool): void {
  if (!process.env.STATEMENT_LOG_DIR) return
  pool.on('connect', (client) => {
    const c = client as unknown as { query: (...args: unknown[]) => unknown }
    const query = c.query.bind(client)
    c.query = (...args) => {
      record(textOf(args[0]))
      return query(...args)
    }
  })
}
