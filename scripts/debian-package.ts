// Debian's packages the test command installs when missing (Chromium, curl, PostgreSQL 15, HAProxy): with apt-get, as
// root, else a clear error naming the package. No service starts while a package installs (a policy-rc.d says no), so
// nothing is left running or listening afterwards; the package lists are read again only when they are needed.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'

const quiet = () => ({
  stdio: ['ignore', 'ignore', 'inherit'] as ('ignore' | 'inherit')[],
  env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
})

/** runs `install` with service starts refused by a policy-rc.d of its own (unless one is there already) */
export function withoutServiceStarts<T>(install: () => T): T {
  const policy = '/usr/sbin/policy-rc.d'
  const ownPolicy = !fs.existsSync(policy)
  if (ownPolicy)
    fs.writeFileSync(
      policy,
      '#!/bin/sh\n# written by npm test while it installs a package: no service starts\nexit 101\n',
      {
        mode: 0o755,
      },
    )
  try {
    return install()
  } finally {
    if (ownPolicy) fs.rmSync(policy, { force: true })
  }
}

/**
 * `apt-get install` of the packages. `apt-get update` first only when the lists do not know one of them, and once
 * more when the install fails (lists older than the mirror name files it no longer serves).
 */
export function aptInstall(packages: string[], options: string[] = []): void {
  const known = (pkg: string) =>
    spawnSync('apt-cache', ['show', '--no-all-versions', pkg], { stdio: 'ignore' }).status === 0
  const install = () => execFileSync('apt-get', ['install', '-y', '-qq', ...options, ...packages], quiet())
  let updated = false
  if (!packages.every(known)) {
    execFileSync('apt-get', ['update', '-qq'], quiet())
    updated = true
  }
  try {
    install()
  } catch (e) {
    if (updated) throw e
    execFileSync('apt-get', ['update', '-qq'], quiet())
    install()
  }
}

/** a program from Debian's package, installed with apt-get when missing (as root; else a clear error) */
export function ensureDebianPackage(file: string, pkg: string, log: (line: string) => void): void {
  if (fs.existsSync(file)) return
  if (process.getuid?.() !== 0)
    throw new Error(`${file} is missing: install Debian's ${pkg} package (apt-get install ${pkg})`)
  log(`installing ${pkg} (apt-get install ${pkg}) ...`)
  withoutServiceStarts(() => aptInstall([pkg]))
  if (!fs.existsSync(file)) throw new Error(`${pkg} installed, but ${file} is missing`)
}
