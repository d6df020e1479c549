// Every port `npm test` uses, moved together by one setting, TEST_PORT_BASE (default 3999, the ports of before), so
// that two checkouts can test side by side on one machine: TEST_PORT_BASE=5200 in one of them moves its server, the
// instances its tests start, its PostgreSQL databases and the standalone stress test's. TEST_PORT, TEST_PG_PORT and
// TEST_PG15_PORT still set one of them each, over what the base says. A port fetch refuses (a browser's "bad port",
// which Node's fetch refuses too) or one in the system's ephemeral range (where the local end of any outgoing
// connection may take it at any moment: a database started there once failed with "Address already in use") is
// refused before anything starts, naming the setting that put it there.
import fs from 'node:fs'

export const DEFAULT_TEST_PORT_BASE = 3999

/**
 * The HTTP ports above the suite's server (TEST_PORT): the instances the HTTP tests and browser journeys start
 * (`port + 40`), the stress test's inside the suite (+10, +20; behind HAProxy +290, +291, +292 and HAProxy +295) and
 * alone (`npm run test:stress`: +102, +103; behind HAProxy +104 … +106 and HAProxy +107), and readiness's database
 * proxies (+175, +177). A test that starts an instance on a new offset lists it here (tests/unit/test-ports.test.ts
 * finds every `port + N` of tests/ and e2e/ and holds it to this list).
 */
export const INSTANCE_OFFSETS = [
  5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 102, 103, 104, 105, 106, 107, 110, 120, 130, 140, 145, 150, 155, 156, 160,
  165, 170, 172, 175, 177, 180, 185, 190, 200, 210, 220, 230, 240, 250, 260, 265, 270, 280, 290, 291, 292, 295,
] as const

/**
 * The PostgreSQL ports above TEST_PG_PORT (the suite's embedded database, TEST_PORT_BASE + 21440: 25439 by default):
 * the development-mode test's database (+1), PostgreSQL 15's pass (+2, TEST_PG15_PORT), the site command test's (+3),
 * the password test's (+4, and +104 for its second), the standalone stress test's (+10, STRESS_PG_PORT).
 */
export const PG_OFFSET = 21_440
export const PG_OFFSETS = { devMode: 1, postgres15: 2, siteCommand: 3, password: 4, passwordAgain: 104, stress: 10 }

/**
 * Ports above 1023 that fetch refuses (the WHATWG fetch standard's bad ports, which browsers and Node's fetch
 * refuse with "bad port"): a server there cannot be reached by the tests or the browser journeys.
 */
export const BAD_PORTS = [
  1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]

/** Linux's ephemeral port range, as the system says it (32768–60999 when it does not) */
export function ephemeralRange(file = '/proc/sys/net/ipv4/ip_local_port_range'): [number, number] {
  try {
    const [low, high] = fs.readFileSync(file, 'utf8').trim().split(/\s+/).map(Number)
    if (Number.isInteger(low) && Number.isInteger(high) && low <= high) return [low, high]
  } catch {
    // not Linux, or no /proc: the kernel's default
  }
  return [32_768, 60_999]
}

export interface TestPorts {
  /** TEST_PORT_BASE */
  base: number
  /** the suite's server (TEST_PORT, else the base) */
  server: number
  /** the instances' ports (server + INSTANCE_OFFSETS) */
  instances: number[]
  /** the suite's embedded PostgreSQL (TEST_PG_PORT, else base + PG_OFFSET) */
  pg: number
  /** PostgreSQL 15's pass (TEST_PG15_PORT, else pg + 2) */
  pg15: number
  /** the other databases' ports (pg + PG_OFFSETS but PostgreSQL 15's) */
  databases: number[]
}

/** the ports of TEST_PORT_BASE and its overrides in `env`, or an Error naming the setting whose port is unusable */
export function testPorts(
  env: Record<string, string | undefined> = process.env,
  ephemeral = ephemeralRange(),
): TestPorts {
  const setting = (name: string, fallback: number): number => {
    const text = env[name]
    if (!text) return fallback
    const n = Number(text)
    if (!Number.isInteger(n) || n < 1024 || n > 65_535) throw new Error(`${name}=${text}: a port number 1024–65535`)
    return n
  }
  const base = setting('TEST_PORT_BASE', DEFAULT_TEST_PORT_BASE)
  const server = setting('TEST_PORT', base)
  const pg = setting('TEST_PG_PORT', base + PG_OFFSET)
  const pg15 = setting('TEST_PG15_PORT', pg + PG_OFFSETS.postgres15)
  const ports: TestPorts = {
    base,
    server,
    instances: INSTANCE_OFFSETS.map((o) => server + o),
    pg,
    pg15,
    databases: Object.entries(PG_OFFSETS).flatMap(([name, o]) => (name === 'postgres15' ? [] : [pg + o])),
  }
  const [low, high] = ephemeral
  // the largest base whose every port stays below the ephemeral range (11223 on Linux's default range)
  const highestBase = low - 1 - PG_OFFSET - Math.max(...Object.values(PG_OFFSETS))
  const named = (name: string) => `${name}=${env[name] ?? `${base} (the default)`}`
  const refuse = (name: string, what: string, port: number, why: string) =>
    new Error(
      `${named(name)} puts ${what} on port ${port}, ${why}. Choose a TEST_PORT_BASE of 1024–${highestBase} ` +
        `(default ${DEFAULT_TEST_PORT_BASE}) whose server ports (the base + 0, ${INSTANCE_OFFSETS[0]}, ` +
        `${INSTANCE_OFFSETS[1]} … ${INSTANCE_OFFSETS.at(-1)}) miss the ports fetch refuses (${BAD_PORTS.join(', ')}), ` +
        `or set ${name} to another port.`,
    )
  const httpSetting = env.TEST_PORT ? 'TEST_PORT' : 'TEST_PORT_BASE'
  const pgSetting = env.TEST_PG_PORT ? 'TEST_PG_PORT' : 'TEST_PORT_BASE'
  // which setting put each port where it is, and whether fetch connects to it (the databases are reached by pg)
  const checked: [string, string, number[], boolean][] = [
    [httpSetting, 'the test server', [server], true],
    [httpSetting, 'an instance of the tests', ports.instances, true],
    [pgSetting, 'a PostgreSQL of the tests', [pg, ...ports.databases], false],
    [env.TEST_PG15_PORT ? 'TEST_PG15_PORT' : pgSetting, 'PostgreSQL 15', [pg15], false],
  ]
  for (const [name, what, list, fetched] of checked)
    for (const port of list) {
      if (port > 65_535) throw refuse(name, what, port, 'which is not a port (above 65535)')
      if (port >= low && port <= high)
        throw refuse(
          name,
          what,
          port,
          `in the system's ephemeral range (${low}–${high}), which outgoing connections take at any moment`,
        )
      if (fetched && BAD_PORTS.includes(port))
        throw refuse(name, what, port, 'one that browsers and fetch refuse to connect to')
    }
  return ports
}

/** the line `npm test` prints at its start: every port it may use */
export function portsLine(p: TestPorts): string {
  const databases = [...p.databases].sort((a, b) => a - b)
  return (
    `ports: server ${p.server}, instances ${p.instances[0]}–${p.instances.at(-1)} (${INSTANCE_OFFSETS.length} ` +
    `of them, server + ${INSTANCE_OFFSETS[0]}…${INSTANCE_OFFSETS.at(-1)}), PostgreSQL ${p.pg} (others ` +
    `${databases.join(', ')}), PostgreSQL 15 ${p.pg15} (TEST_PORT_BASE=${p.base})`
  )
}
