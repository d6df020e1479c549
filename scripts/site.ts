// npm run site -- create <siteId>          creates the site when missing; prints a new token alone on the last line
// npm run site -- revoke <siteId> <token>  revokes a token (whole, or the hint shown by list)
// npm run site -- list                      sites and their tokens' hints
// npm run site -- notify <siteId> <url|off>  the site's notification URL; prints its signing secret on the last line
// npm run site -- secret <siteId> prints the site's signing secret on the last line (and the previous one during a
// grace period)
// npm run site -- rotate-secret <siteId> [--now] makes a new signing secret, printed on the last line; the old one
// signs for
//                                                  NOTIFY_SECRET_GRACE_HOURS more (not at all with --now, after a leak)
// npm run site -- refunds <siteId> postponed|immediate  the site's refund scheme (postponed: refunds wait until
//                                                  21:00 Moscow time on the site's clock, and can be declined)
// npm run site -- holds <siteId> capture|reverse [<hours>]  what the site's holds (authorised, uncaptured payments)
//                                                  do once <hours> (1 to 120; default: unchanged, 72 at first) have
//                                                  passed since their authorisation: captured in full, or reversed
// npm run site -- public-key <siteId> [--rotate]  the site's public key of links without the API (GET /create?…),
//                                                  on the last line; --rotate makes a new one (the old one stops)
// npm run site -- frame-origins <siteId> [<origin>...|off]  the origins that may frame the site's payment pages and
//                                                  hear their events (exact: https, or http on loopback); none given:
//                                                  prints them; off: no one may
// npm run site -- retention <siteId> [<days>|off]  the site's retention: its finished data older than <days> (1 to
//                                                  3650) on its clock is deleted by the scheduler's sweep
//                                                  (docs/operators/data-retention.md); off (the default): all is
//                                                  kept; none given: prints it
// Same settings as the server: DATABASE_URL, else the embedded PostgreSQL under data/ (EMBEDDED_PG_DIR) on
// the port the running server's database listens on (started on EMBEDDED_PG_PORT when none runs).
// A notification URL is checked as the server checks it, from the same setting, NOTIFY_ALLOW_NETWORKS (default
// none: loopback receivers pass only with e.g. NOTIFY_ALLOW_NETWORKS=127.0.0.0/8,::1/128).
// A site that does not exist is one line on stderr and exit code 1.
import { openDatabase, secretKey } from './database.ts'

const [command, siteId, token] = process.argv.slice(2)
const usage =
  'usage: npm run site -- create <siteId> | revoke <siteId> <token> | list | notify <siteId> <url|off> | secret <siteId> | rotate-secret <siteId> [--now] | refunds <siteId> postponed|immediate | holds <siteId> capture|reverse [<hours>] | frame-origins <siteId> [<origin>...|off] | public-key <siteId> [--rotate] | retention <siteId> [<days>|off]'

async function main(): Promise<number> {
  const commands = [
    'create',
    'revoke',
    'list',
    'notify',
    'secret',
    'rotate-secret',
    'refunds',
    'holds',
    'frame-origins',
    'retention',
  ]
  if (![...commands, 'public-key'].includes(command ?? '')) {
    console.error(usage)
    return 2
  }
  const database = await openDatabase((line) => console.error(line))
  const { closeDb } = await import('../lib/db/client.ts')
  const sites = await import('../lib/sites/site-tokens.ts')
  try {
    return await run(sites)
  } catch (e) {
    if (e instanceof sites.SiteNotFound) {
      console.error(`no site "${e.siteId}" (npm run site -- list shows the sites)`)
      return 1
    }
    throw e
  } finally {
    await closeDb()
    await database.release()
  }
}

async function run(sites: typeof import('../lib/sites/site-tokens.ts')): Promise<number> {
  if (command === 'create') {
    if (!siteId) throw new Error(usage)
    const { created } = await sites.ensureSite(siteId)
    const t = await sites.issueToken(siteId)
    console.log(
      `site ${siteId} ${created ? 'created' : 'exists'}; its notification signing secret: npm run site -- secret ${siteId}`,
    )
    console.log('new token:')
    console.log(t)
  } else if (command === 'revoke') {
    if (!siteId || !token) throw new Error(usage)
    const n = await sites.revokeToken(siteId, token)
    console.log(n ? `revoked ${n} token(s) of ${siteId}` : `no active token of ${siteId} matches`)
    if (!n) return 1
  } else if (command === 'refunds') {
    const scheme = token
    if (!siteId || (scheme !== 'postponed' && scheme !== 'immediate')) throw new Error(usage)
    const { setRefundsPostponed } = await import('../lib/sites/site-store.ts')
    if (!(await setRefundsPostponed(siteId, scheme === 'postponed'))) throw new sites.SiteNotFound(siteId)
    console.log(
      scheme === 'postponed'
        ? `refunds of ${siteId} are postponed: WAITING until 21:00 Moscow time (its clock), declinable until then`
        : `refunds of ${siteId} complete at once`,
    )
  } else if (command === 'holds') {
    const action = token
    const hoursArg = process.argv[5]
    if (!siteId || (action !== 'capture' && action !== 'reverse')) throw new Error(usage)
    const { isHoldPeriod, setHoldSetting } = await import('../lib/payments/hold-expiry.ts')
    const hours = hoursArg === undefined ? undefined : Number(hoursArg)
    if (hours !== undefined && !(/^\d+$/.test(hoursArg!) && isHoldPeriod(hours))) {
      console.error('the hold period is whole hours, 1 to 120 (5 days)')
      return 2
    }
    const setting = await setHoldSetting(siteId, { reversal: action === 'reverse', hours })
    if (!setting) throw new sites.SiteNotFound(siteId)
    console.log(
      `holds of ${siteId} are ${setting.reversal ? 'reversed' : 'captured in full'} ${setting.hours} h after their authorisation`,
    )
  } else if (command === 'public-key') {
    if (!siteId || (token !== undefined && token !== '--rotate')) throw new Error(usage)
    secretKey()
    const keys = await import('../lib/form-links/public-key.ts')
    const k = token === '--rotate' ? await keys.rotatePublicKey(siteId) : await keys.publicKeyOf(siteId)
    console.log(
      `${token === '--rotate' ? 'new ' : ''}public key of ${siteId} (links without the API: /create?publicKey=…):`,
    )
    console.log(k.key)
  } else if (command === 'retention') {
    const given = token
    if (!siteId) throw new Error(usage)
    const { retentionOf, writeRetention } = await import('../lib/sites/site-store.ts')
    const { RETENTION_DAYS } = await import('../lib/sandbox/retention-sweep.ts')
    let days: number | null | undefined
    if (given === undefined) days = await retentionOf(siteId)
    else if (given === 'off') days = (await writeRetention(siteId, null)) ? null : undefined
    else {
      const n = Number(given)
      if (!/^\d+$/.test(given) || n < RETENTION_DAYS.min || n > RETENTION_DAYS.max) {
        console.error(`the retention is whole days, ${RETENTION_DAYS.min} to ${RETENTION_DAYS.max}, or off`)
        return 2
      }
      days = (await writeRetention(siteId, n)) ? n : undefined
    }
    if (days === undefined) throw new sites.SiteNotFound(siteId)
    console.log(
      days === null
        ? `${siteId} keeps all its data (no retention)`
        : `finished data of ${siteId} older than ${days} days (its clock) is deleted by the scheduler's sweep`,
    )
  } else if (command === 'frame-origins') {
    const given = process.argv.slice(4)
    if (!siteId) throw new Error(usage)
    const frames = await import('../lib/sites/frame-origins.ts')
    let origins: string[] | null
    try {
      origins =
        given.length === 0
          ? await frames.frameOrigins(siteId)
          : await frames.setFrameOrigins(siteId, given.length === 1 && given[0] === 'off' ? [] : given)
    } catch (e) {
      if (!(e instanceof frames.FrameOriginRefused)) throw e
      console.error(`frame origin ${e.origin} refused: ${e.reason}`)
      return 2
    }
    if (!origins) throw new sites.SiteNotFound(siteId)
    console.log(
      origins.length
        ? `payment pages of ${siteId} may be framed by (and post their events to): ${origins.join(' ')}`
        : `payment pages of ${siteId} may not be framed (frame-ancestors 'none')`,
    )
  } else if (command === 'notify' || command === 'secret' || command === 'rotate-secret') {
    const url = token
    if (!siteId || (command === 'notify' && !url)) throw new Error(usage)
    secretKey()
    const notify = await import('../lib/notifications/site-notify.ts')
    let secrets
    if (command === 'notify') {
      secrets = await notify.setNotifyUrl(siteId, url === 'off' ? null : url).catch((e: unknown) => {
        // the rule's own words, and how this command decided: as a server with its environment would
        if (e instanceof notify.NotifyUrlRefused)
          throw new Error(`${e.message}; decided as the server does, from the same settings: ${notify.policyNow()}`)
        throw e
      })
      console.log(
        url === 'off'
          ? `notifications of ${siteId} go to each operation's callbackUrl only`
          : `notifications of ${siteId} go to ${url}`,
      )
    } else if (command === 'rotate-secret') {
      if (token !== undefined && token !== '--now') throw new Error(usage)
      secrets = await notify.rotateNotifySecret(siteId, token === '--now')
      console.log(
        `new signing secret of ${siteId}; the previous one ${secrets.previous ? `still signs Signature until ${secrets.previousUntil!.toISOString()}` : 'no longer signs'}`,
      )
    } else secrets = await notify.notifySecrets(siteId)
    if (secrets.previous)
      console.log(`previous secret, valid until ${secrets.previousUntil!.toISOString()}: ${secrets.previous}`)
    console.log(`signing secret of ${siteId} (Signature and Payin-Signature headers):`)
    console.log(secrets.current)
  } else {
    for (const s of await sites.listSites()) {
      console.log(s.id)
      for (const t of s.tokens)
        console.log(
          `  ${t.hint}…  created ${t.createdAt.toISOString()}${t.revokedAt ? `  revoked ${t.revokedAt.toISOString()}` : ''}`,
        )
    }
  }
  return 0
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.message : e)
    process.exit(1)
  },
)
