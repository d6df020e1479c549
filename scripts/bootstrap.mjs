// Installs what the project needs, using nothing but Node's own modules (it runs before node_modules
// exists): `npm ci` when node_modules is missing or older than package-lock.json, then the Prisma
// client when it is missing or older than the schema, then the registries' lists of modules
// (registries.mjs). Run first by scripts/launch.mjs, i.e. by every npm script.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeRegistries } from './registries.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const mtime = (p) => {
  try {
    return fs.statSync(path.join(root, p)).mtimeMs
  } catch {
    return 0
  }
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const quiet = { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] }

export function bootstrap() {
  const installed = mtime('node_modules/.package-lock.json')
  if (!installed || installed < mtime('package-lock.json') || installed < mtime('package.json')) {
    console.error('installing dependencies (npm ci) ...')
    execFileSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], quiet)
  }
  const generated = mtime('lib/generated/prisma/client.ts')
  if (!generated || generated < mtime('prisma/schema.prisma') || generated < mtime('node_modules/.package-lock.json')) {
    console.error('generating the Prisma client ...')
    execFileSync(path.join(root, 'node_modules/.bin/prisma'), ['generate'], {
      ...quiet,
      stdio: ['ignore', 'ignore', 'inherit'],
      // generate needs no schema engine; without this Prisma tries to download one
      env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: '/bin/true', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
    })
  }
  writeRegistries(root)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) bootstrap()
