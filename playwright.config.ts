// Browser journeys in Debian's Chromium (/usr/bin/chromium), against the server that
// scripts/run-tests.ts started (BASE_URL).
import { defineConfig } from '@playwright/test'
import { testPorts } from './scripts/test-ports.ts'

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  // two spec files at a time: a journey mostly waits on the page and the server (each works on sites of its own)
  workers: 2,
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  outputDir: 'test-results',
  use: {
    // run alone (npx playwright test, a server started by hand): where TEST_PORT_BASE and TEST_PORT put it
    baseURL: process.env.BASE_URL ?? `http://127.0.0.1:${testPorts().server}`,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-dev-shm-usage',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-default-apps',
        '--disable-sync',
        '--no-first-run',
        '--metrics-recording-only',
      ],
    },
  },
})
