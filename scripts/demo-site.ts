// The demo site `npm start` makes, and what the start says of it. Its token is shown once, when it is made,
// and kept in the data folder (data/demo.token, mode 0600, like data/secret.key), so that a later start can
// say where it is; the start ends with a framed summary: where the service is, the site, its token, and what
// to run next.
import fs from 'node:fs'
import path from 'node:path'

/**
 * where the demo site's token is kept: data/demo.token for the default site, data/demo-<id>.token for another
 * DEMO_SITE_ID (a second checkout's or a test's demo site never overwrites the first one's)
 */
export function demoTokenFile(siteId: string, dir = 'data'): string {
  return path.join(dir, siteId === 'demo' ? 'demo.token' : `demo-${siteId}.token`)
}

/** writes the token, readable by its owner alone; a file left by another database is replaced */
export function keepDemoToken(file: string, token: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.rmSync(file, { force: true })
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' })
}

/**
 * The demo site's token at a start: `made` (the site was created now: its token, written to the file), `kept` (the
 * file holds an active token of the site), `missing` (no file: the token was printed at a start before files were
 * kept) or `stale` (the file's token is revoked, or another database's).
 */
export type DemoToken = { state: 'made'; token: string } | { state: 'kept' | 'missing' | 'stale' }

/** makes the demo site when missing (with a token, kept in `file`); else says where its token is */
export async function demoSiteAtStart(siteId: string, file: string): Promise<DemoToken> {
  const { ensureSite, issueToken, isActiveToken } = await import('../lib/sites/site-tokens.ts')
  if ((await ensureSite(siteId)).created) {
    const token = await issueToken(siteId)
    keepDemoToken(file, token)
    return { state: 'made', token }
  }
  let kept: string
  try {
    kept = fs.readFileSync(file, 'utf8').trim()
    // readable by its owner alone, also when it was copied in or its mode was changed since
    fs.chmodSync(file, 0o600)
  } catch {
    return { state: 'missing' }
  }
  return { state: (await isActiveToken(siteId, kept)) ? 'kept' : 'stale' }
}

/** the start's line about the token: the token itself once, else where it is or how to make another */
export function demoTokenLine(siteId: string, file: string, token: DemoToken): string {
  const another = `make another with: npm run site -- create ${siteId}`
  switch (token.state) {
    case 'made':
      return `demo site token: ${token.token} (shown once, and kept in ${file}, readable by you alone)`
    case 'kept':
      return `demo site token: in ${file} (made at the first start)`
    case 'missing':
      return `demo site token: printed at the first start; ${another}`
    case 'stale':
      return `demo site token: ${file} holds no active token of ${siteId} (revoked, or another database's); ${another}`
  }
}

/** lines in a frame of box-drawing characters, as wide as the longest */
export function framed(lines: string[]): string {
  const width = Math.max(...lines.map((l) => l.length))
  const rule = '─'.repeat(width + 2)
  return [`┌${rule}┐`, ...lines.map((l) => `│ ${l.padEnd(width)} │`), `└${rule}┘`].join('\n')
}

/** what ends a start: where the service and its dashboard are, the demo site and its token, what to run next */
export function startSummary(o: { base: string; siteId: string; file: string; token: DemoToken }): string {
  const tokenShown = {
    made: o.token.state === 'made' ? o.token.token : '',
    kept: `in ${o.file}`,
    missing: `printed at the first start (npm run site -- create ${o.siteId} makes another)`,
    stale: `${o.file} holds none that works (npm run site -- create ${o.siteId} makes one)`,
  }[o.token.state]
  // without a token that works, the first step makes one and keeps it where the next start looks (0600 from then)
  const makeToken =
    o.token.state === 'made' || o.token.state === 'kept'
      ? []
      : [`  npm run --silent site -- create ${o.siteId} | tail -n 1 > ${o.file}   (a new token, kept)`]
  const listen = `npm run webhooks -- listen${o.siteId === 'demo' ? '' : ` --site ${o.siteId}`}`
  return framed([
    'Payin sandbox is running',
    `  API         ${o.base}/api`,
    `  dashboard   ${o.base}/dashboard`,
    `  site id     ${o.siteId}`,
    `  token       ${tokenShown}`,
    'Next, in another terminal:',
    ...makeToken,
    `  export BASE=${o.base}/api SITE=${o.siteId} TOKEN=$(cat ${o.file})`,
    `  ${listen}   (shows each notification, its signatures verified)`,
  ])
}
