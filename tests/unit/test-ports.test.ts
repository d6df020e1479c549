// `npm test` on any ports (issue 28, point 8): one setting, TEST_PORT_BASE, moves every port the suite uses; the
// default keeps the ports of before; a base that would put a port where fetch refuses it or in the ephemeral range
// is refused before anything starts; and every instance a test starts sits on an offset the layout knows.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import {
  BAD_PORTS,
  DEFAULT_TEST_PORT_BASE,
  ephemeralRange,
  INSTANCE_OFFSETS,
  PG_OFFSETS,
  portsLine,
  testPorts,
} from '../../scripts/test-ports.ts'

/** Linux's default ephemeral range, whatever this machine's */
const LINUX = [32_768, 60_999] as [number, number]
const portsOf = (env: Record<string, string>) => testPorts(env, LINUX)

test('the default base keeps the ports of before: 3999 and its instances, PostgreSQL 25439 and beside it', () => {
  const p = portsOf({})
  assert.equal(p.base, DEFAULT_TEST_PORT_BASE)
  assert.equal(p.server, 3999)
  assert.equal(p.pg, 25_439)
  assert.equal(p.pg15, 25_441)
  assert.deepEqual(
    [...p.databases].sort((a, b) => a - b),
    [25_440, 25_442, 25_443, 25_449, 25_543],
  )
  // the suite's stress instances (server + 10, + 20) and the standalone stress test's (4101, 4102), and those behind
  // HAProxy (4289–4291, HAProxy 4294; alone 4103–4105, HAProxy 4106)
  for (const port of [4009, 4019, 4101, 4102, 4249, 4289, 4290, 4291, 4294, 4103, 4104, 4105, 4106])
    assert.ok(p.instances.includes(port), String(port))
})

test('TEST_PORT_BASE moves every port; TEST_PORT, TEST_PG_PORT and TEST_PG15_PORT still set one each', () => {
  const moved = portsOf({ TEST_PORT_BASE: '5200' })
  assert.equal(moved.server, 5200)
  assert.deepEqual(
    moved.instances,
    INSTANCE_OFFSETS.map((o) => 5200 + o),
  )
  assert.equal(moved.pg, 26_640)
  assert.equal(moved.pg15, 26_642)
  const before = portsOf({})
  const all = (p: typeof moved) => [p.server, ...p.instances, p.pg, p.pg15, ...p.databases]
  for (const port of all(moved)) assert.ok(!all(before).includes(port), `${port} is one of the default's`)

  const overridden = portsOf({ TEST_PORT_BASE: '5200', TEST_PORT: '7000', TEST_PG_PORT: '20000' })
  assert.equal(overridden.server, 7000)
  assert.equal(overridden.instances[0], 7000 + INSTANCE_OFFSETS[0])
  assert.equal(overridden.pg, 20_000)
  assert.equal(overridden.pg15, 20_000 + PG_OFFSETS.postgres15)
  assert.equal(portsOf({ TEST_PG15_PORT: '21000' }).pg15, 21_000)
  assert.match(portsLine(moved), /^ports: server 5200, instances 5205–5495 .*PostgreSQL 26640 .*PostgreSQL 15 26642/)
})

test('a base that lands a port in the ephemeral range or on a port fetch refuses is refused, naming the cause', () => {
  assert.throws(
    () => portsOf({ TEST_PORT_BASE: '30000' }),
    /^Error: TEST_PORT_BASE=30000 puts a PostgreSQL of the tests on port 51440, in the system's ephemeral range \(32768–60999\).*Choose a TEST_PORT_BASE of 1024–11223/,
  )
  assert.doesNotThrow(() => portsOf({ TEST_PORT_BASE: '11223' }))
  assert.throws(() => portsOf({ TEST_PORT_BASE: '11224' }), /port 32768, in the system's ephemeral range/)
  // 4900 + 160 = 5060 (SIP), which fetch and browsers refuse
  assert.throws(
    () => portsOf({ TEST_PORT_BASE: '4900' }),
    /^Error: TEST_PORT_BASE=4900 puts an instance of the tests on port 5060, one that browsers and fetch refuse/,
  )
  assert.throws(() => portsOf({ TEST_PORT: '6000' }), /TEST_PORT=6000 puts the test server on port 6000/)
  assert.throws(() => portsOf({ TEST_PORT: '40000' }), /TEST_PORT=40000 .*ephemeral range/)
  assert.throws(() => portsOf({ TEST_PG_PORT: '33000' }), /TEST_PG_PORT=33000 puts a PostgreSQL of the tests/)
  assert.throws(() => portsOf({ TEST_PG15_PORT: '33000' }), /TEST_PG15_PORT=33000 puts PostgreSQL 15/)
  assert.throws(() => portsOf({ TEST_PORT_BASE: 'abc' }), /TEST_PORT_BASE=abc: a port number 1024–65535/)
  assert.throws(() => portsOf({ TEST_PORT_BASE: '80' }), /TEST_PORT_BASE=80: a port number/)
  // a PostgreSQL port is not fetched: 6000 is fine there
  assert.doesNotThrow(() => portsOf({ TEST_PG_PORT: '6000' }))
  // the system's own range when it says one
  assert.throws(() => testPorts({}, [25_000, 30_000]), /port 25439, in the system's ephemeral range \(25000–30000\)/)
})

test("the ephemeral range is read from the system's file, else Linux's default", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-ports-'))
  try {
    const file = path.join(dir, 'ip_local_port_range')
    fs.writeFileSync(file, '40000\t50000\n')
    assert.deepEqual(ephemeralRange(file), [40_000, 50_000])
    assert.deepEqual(ephemeralRange(path.join(dir, 'missing')), LINUX)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('npm test refuses such a base before it starts anything, with the message alone', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/run-tests.ts'], {
    env: { ...process.env, TEST_PORT_BASE: '4900' },
    encoding: 'utf8',
    timeout: 60_000,
  })
  assert.equal(r.status, 2, r.stderr)
  assert.match(r.stderr, /^\[test\] TEST_PORT_BASE=4900 puts an instance of the tests on port 5060/)
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace')
  assert.doesNotMatch(r.stdout, /\[test\] lint/, 'nothing started')
})

test('every instance a test or journey starts sits on an offset of the layout (INSTANCE_OFFSETS)', () => {
  const sources = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((f) => f.isFile() && f.name.endsWith('.ts'))
      .map((f) => path.join(f.parentPath, f.name))
  const offsets = new Map<number, string>()
  for (const file of [...sources('tests'), ...sources('e2e'), 'scripts/run-tests.ts'])
    // `port + 40`, `PORT + 10`, `.port) + 200`: the server's port and an offset (not TEST_PG_PORT's)
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/(?:\bport|(?<!PG_)PORT|\.port\))\s*\+\s*(\d+)/g))
      offsets.set(Number(m[1]), file)
  assert.ok(offsets.size >= 30, `only ${offsets.size} offsets found: has the pattern gone stale?`)
  for (const [offset, file] of offsets)
    assert.ok(
      (INSTANCE_OFFSETS as readonly number[]).includes(offset),
      `${file}: port + ${offset} is not in INSTANCE_OFFSETS`,
    )
  // and the default's instances miss the ports fetch refuses (4045 and 4190 lie between them)
  for (const port of portsOf({}).instances) assert.ok(!BAD_PORTS.includes(port), String(port))
})
