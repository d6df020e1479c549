// Every npm script of the project starts here: `node scripts/launch.mjs <script.ts> [args]`.
// 1. installs what is missing (scripts/bootstrap.mjs: npm ci, the Prisma client), with whatever Node.js
//    runs npm — on a fresh machine that may be an old one;
// 2. picks the supported runtime (scripts/runtime.mjs: the machine's Node.js when it is ≥ 26, else the
//    packaged one npm ci installed);
// 3. runs the script on it (TypeScript through tsx), with that runtime as `node` first on PATH so that
//    every tool the script starts (next, playwright, tsc, child processes) runs on it too;
// 4. passes signals on and exits as the script exits. package.json runs it with `exec`, so the shell npm
//    starts scripts in is replaced by it and a SIGTERM to npm reaches it (and through it the service).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { bootstrap } from './bootstrap.mjs'
import { chooseRuntime } from './runtime.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const [script, ...args] = process.argv.slice(2)
if (!script) {
  console.error('usage: node scripts/launch.mjs <script.ts> [args]')
  process.exit(2)
}

bootstrap()
let runtime
try {
  runtime = chooseRuntime({ root })
} catch (e) {
  console.error(`[payin] ${e.message}`)
  process.exit(1)
}
if (process.env.PAYIN_LAUNCHED !== runtime.file) {
  const from = {
    machine: "the machine's own",
    current: 'the running',
    package: `the packaged (node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch})`,
  }[runtime.source]
  console.error(`[payin] Node.js ${runtime.version}: ${from} runtime`)
}
// a directory holding only `node` (a link to the runtime) goes first on PATH: tools started by bare name
// keep resolving as before (the project's node_modules/.bin first), only `node` is the runtime
const bin = path.join(root, 'node_modules', '.cache', 'payin-runtime')
const link = path.join(bin, process.platform === 'win32' ? 'node.exe' : 'node')
try {
  fs.mkdirSync(bin, { recursive: true })
  if (!fs.existsSync(link) || fs.realpathSync(link) !== fs.realpathSync(runtime.file)) {
    fs.rmSync(link, { force: true })
    fs.symlinkSync(runtime.file, link)
  }
} catch (e) {
  console.error(`[payin] cannot link the runtime into ${bin}: ${e.message}`)
  process.exit(1)
}
const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, PAYIN_LAUNCHED: runtime.file }
const child = spawn(runtime.file, ['--import', 'tsx', script, ...args], { cwd: root, stdio: 'inherit', env })
child.on('error', (e) => {
  console.error(`[payin] cannot start ${runtime.file}: ${e.message}`)
  process.exit(1)
})
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => {
  process.exit(signal ? 128 + (os.constants.signals[signal] ?? 0) : (code ?? 1))
})
