// `npm start`: installs what is missing, then runs the service (scripts/serve.ts).
import { spawnSync } from 'node:child_process'
import { bootstrap } from './bootstrap.mjs'

bootstrap()
const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/serve.ts', ...process.argv.slice(2)], { stdio: 'inherit' })
process.exit(r.status ?? 1)
