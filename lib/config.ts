// Settings, read from the environment once per process. See README "Configuration".
export interface Settings {
  port: number
  publicBaseUrl: string
  /** IANA time zone of answered date-times */
  timeZone: string
  /** key of the HMAC that fingerprints requests (idempotency) */
  secretKey: string
  databasePoolSize: number
  /** the bearer token that opens GET /api/metrics; empty: the endpoint is off (404) */
  metricsToken: string
  /** how long an unfinished 3-D Secure challenge waits before it declines */
  threeDSTimeoutMs: number
  /** requests per minute and token (a token's own limit overrides it); 0 turns the limit off */
  rateLimitPerMinute: number
  /**
   * the per-site sandbox clock (lib/sandbox/site-clock.ts): its endpoints (…/sandbox/clock, …/sandbox/reset)
   * and the sites' clock offsets; SANDBOX_CLOCK=off turns both off (every site on real time)
   */
  sandboxClock: boolean
  /** the sandbox's one-time code */
  otpCode: string
  /** after how long the emulated mobile operator confirms or rejects (phones ending 0000 / 0001) */
  mobileOperatorDelayMs: number
  /** how often each instance's scheduler looks for time-driven changes that fell due */
  schedulerPollMs: number
  /** how long the previous notification secret still signs after a rotation */
  notifySecretGraceMs: number
  /** the payment page's limits (see lib/pay-form/attempt-limits.ts); 0 turns a limit off */
  pageLimits: {
    /** unsuccessful attempts in a row on one bill before the bill pauses */
    billStreak: number
    billPauseMs: number
    /** attempts per client address and window, across bills */
    clientAttempts: number
    clientWindowMs: number
  }
  /** the merchant dashboard's sessions and sign-in limits (lib/dashboard/dashboard-session.ts) */
  dashboard: {
    idleMinutes: number
    /** a session's whole life, however busy */
    maxHours: number
    failuresPerClient: number
    failuresPerSite: number
    windowSeconds: number
  }
}

/**
 * the settings of an environment (settings(): the process's, read once); a wrong one throws, saying which in one line
 */
export function readSettings(env: Record<string, string | undefined> = process.env): Settings {
  const port = Number(env.PORT ?? 3000)
  const timeZone = env.SERVICE_TIME_ZONE || 'UTC'
  try {
    new Intl.DateTimeFormat('en-US', { timeZone })
  } catch {
    throw new Error(`SERVICE_TIME_ZONE=${timeZone} is not an IANA time zone`)
  }
  return {
    port,
    publicBaseUrl: publicBaseUrlOf(env),
    timeZone,
    secretKey: env.SECRET_KEY ?? '',
    databasePoolSize: Math.max(1, Number(env.DATABASE_POOL_SIZE ?? 10) || 10),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    threeDSTimeoutMs: positive(env.THREE_DS_TIMEOUT_MS, 15 * 60_000),
    rateLimitPerMinute: Math.max(0, Number(env.RATE_LIMIT_PER_MINUTE ?? 6000) || 0),
    sandboxClock: sandboxClock(env.SANDBOX_CLOCK),
    otpCode: env.SANDBOX_OTP_CODE || '1234',
    mobileOperatorDelayMs: Math.max(0, Number(env.MOBILE_OPERATOR_DELAY_MS ?? 3000) || 0),
    schedulerPollMs: positive(env.SCHEDULER_POLL_MS, 1000),
    notifySecretGraceMs: Math.max(0, Number(env.NOTIFY_SECRET_GRACE_HOURS ?? 24) || 0) * 3600_000,
    pageLimits: {
      billStreak: whole(env.PAGE_BILL_ATTEMPTS, 5),
      billPauseMs: positive(env.PAGE_BILL_PAUSE_SECONDS, 600) * 1000,
      clientAttempts: whole(env.PAGE_CLIENT_ATTEMPTS, 20),
      // at most 10⁹ s (the window's length is an int in SQL)
      clientWindowMs: Math.min(positive(env.PAGE_CLIENT_WINDOW_SECONDS, 600, true), 1e9) * 1000,
    },
    dashboard: {
      idleMinutes: Math.min(positive(env.DASHBOARD_IDLE_MINUTES, 480, true), 1e6),
      maxHours: Math.min(positive(env.DASHBOARD_SESSION_MAX_HOURS, 24, true), 1e6),
      failuresPerClient: positive(env.DASHBOARD_SIGN_IN_FAILURES_PER_CLIENT, 10, true),
      failuresPerSite: positive(env.DASHBOARD_SIGN_IN_FAILURES_PER_SITE, 20, true),
      windowSeconds: Math.min(positive(env.DASHBOARD_SIGN_IN_WINDOW_SECONDS, 900, true), 1e9),
    },
  }
}

/** the service's public origin: PUBLIC_BASE_URL, else http://localhost:$PORT (no trailing slash) */
export function publicBaseUrlOf(env: Record<string, string | undefined> = process.env): string {
  return (env.PUBLIC_BASE_URL || `http://localhost:${Number(env.PORT ?? 3000)}`).replace(/\/+$/, '')
}

/** the shortest METRICS_TOKEN taken: a bearer token anyone who reaches the port may guess at */
export const METRICS_TOKEN_MIN_LENGTH = 16

/**
 * METRICS_TOKEN without the spaces and line ends around it ('' when unset or blank: metrics off); too
 * short, refused; so is one with a character other than visible ASCII (a space or tab inside it, a
 * control or non-ASCII character), which no `Authorization: Bearer` header could carry to match it.
 */
function metricsToken(text: string | undefined): string {
  const token = (text ?? '').trim()
  if (token && token.length < METRICS_TOKEN_MIN_LENGTH)
    throw new Error(
      `METRICS_TOKEN has ${token.length} characters, fewer than ${METRICS_TOKEN_MIN_LENGTH}: use a long random value (openssl rand -hex 32), or leave it unset to turn metrics off`,
    )
  if (/[^\x21-\x7e]/.test(token))
    throw new Error(
      'METRICS_TOKEN has a character a bearer token cannot carry (a space or tab inside it, a control or non-ASCII character): use a long random value (openssl rand -hex 32), or leave it unset to turn metrics off',
    )
  return token
}

/** SANDBOX_CLOCK: on (the default) or off */
function sandboxClock(text: string | undefined): boolean {
  const value = (text ?? '').trim().toLowerCase()
  if (value === '' || value === 'on') return true
  if (value === 'off') return false
  throw new Error(`SANDBOX_CLOCK=${text}: on or off`)
}

/** a positive number (an integer, when asked) of the environment, else the default */
export function positive(text: string | undefined, fallback: number, integer = false): number {
  const n = Number(text)
  return text && Number.isFinite(n) && n > 0 && (!integer || Number.isInteger(n)) ? n : fallback
}

/** a whole number ≥ 0 of the environment (0: off), else the default */
function whole(text: string | undefined, fallback: number): number {
  const n = Number(text)
  return text !== undefined && text !== '' && Number.isInteger(n) && n >= 0 ? n : fallback
}

let cached: Settings | undefined
export function settings(): Settings {
  cached ??= readSettings()
  return cached
}
