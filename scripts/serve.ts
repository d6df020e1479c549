// The service: builds the app when its sources changed, opens the database (embedded PostgreSQL when
// DATABASE_URL is unset), applies migrations, makes sure the demo site exists, then runs the server
// (scripts/http-server.ts: Next.js behind the front door). `npm run dev` passes --dev: no build, Next.js
// in development mode (compiles on request, hot reload) behind the same front door, on the same database.
// The demo site's token is printed once, when it is made, and kept in data/demo.token (scripts/demo-site.ts);
// once the server listens, a framed summary says where everything is and what to run next.
import { spawn } from 'node:child_process'
import { buildIfChanged } from './app-build.ts'
import { settings } from '../lib/config.ts'
import { outgoingPolicy, receiversOnThisMachine } from '../lib/notifications/outgoing-policy.ts'
import { metricsToken, openDatabase, secretKey } from './database.ts'
import { demoSiteAtStart, demoTokenFile, demoTokenLine, startSummary } from './demo-site.ts'

const log = (line: string) => console.log(`[payin] ${line}`)
const port = Number(process.env.PORT || 3000)
const dev = process.argv.includes('--dev')

async function main() {
  const metrics = metricsToken()
  // a setting that is wrong (METRICS_TOKEN too short or not a bearer token, an unknown SERVICE_TIME_ZONE): one line, no
  // start
  let receivers: string
  try {
    settings()
    // a malformed NOTIFY_ALLOW_NETWORKS too; the server decides from the same environment
    receivers = receiversOnThisMachine(outgoingPolicy(), dev ? 'npm run dev' : 'npm start')
  } catch (e) {
    console.error(`[payin] ${(e as Error).message}`)
    process.exit(1)
  }
  if (!dev) await buildIfChanged(log)
  const database = await openDatabase(log)
  const { closeDb } = await import('../lib/db/client.ts')
  const demo = process.env.DEMO_SITE_ID || 'demo'
  const tokenFile = demoTokenFile(demo)
  const token = await demoSiteAtStart(demo, tokenFile)
  await closeDb()

  // the server's output passes through, watched for the line that says it listens: the summary comes after it
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/http-server.ts', ...(dev ? ['--dev'] : [])], {
    stdio: ['inherit', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: database.url, SECRET_KEY: secretKey(), NEXT_TELEMETRY_DISABLED: '1' },
  })
  const base = process.env.PUBLIC_BASE_URL || `http://localhost:${port}`
  let summarised = false
  let seen = ''
  server.stdout!.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk)
    if (summarised) return
    seen = (seen + chunk.toString()).slice(-200)
    if (!seen.includes('[payin] listening on')) return
    summarised = true
    console.log(startSummary({ base, siteId: demo, file: tokenFile, token }))
  })
  log(
    `API and payment form on ${base} (health: ${base}/api/health)${dev ? ': development mode, pages compile on first request and reload on change' : ''}`,
  )
  log(`demo site id: ${demo}`)
  log(demoTokenLine(demo, tokenFile, token))
  // the token itself is never printed: the command reads it where it is
  if (metrics === 'file') log(`metrics: curl -H "Authorization: Bearer $(cat data/metrics.token)" ${base}/api/metrics`)
  else if (metrics === 'environment') log(`metrics: curl -H "Authorization: Bearer $METRICS_TOKEN" ${base}/api/metrics`)
  else log('metrics: off (METRICS_TOKEN is empty)')
  log(
    `notifications: npm run site -- notify ${demo} <url> sets where they go; npm run site -- secret ${demo} shows their signing secret`,
  )
  log(receivers)

  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    server.kill(signal)
  }
  process.on('SIGINT', () => stop('SIGTERM'))
  process.on('SIGTERM', () => stop('SIGTERM'))
  // 'close', not 'exit': the server's last output lines are still in the pipe at its exit
  const code = await new Promise<number>((resolve) => server.on('close', (c) => resolve(c ?? 0)))
  await database.release()
  process.exit(code)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
