// `npm test`: installs what is missing, then runs the whole suite (scripts/run-tests.ts).
import { spawnSync } from 'node:child_process'
import { bootstrap } from './bootstrap.mjs'

bootstrap()
const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/run-tests.ts', ...process.argv.slice(2)], { stdio: 'inherit' })
process.exit(r.status ?? 1)
