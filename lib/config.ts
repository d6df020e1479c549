// Settings, read from the environment once per process. See README "Configuration".
export interface Settings {
  port: number
  publicBaseUrl: string
  /** IANA time zone of answered date-times */
  timeZone: string
  /** key of the HMAC that fingerprints requests (idempotency) */
  secretKey: string
  databasePoolSize: number
  /** how long an unfinished 3-D Secure challenge waits before it declines */
  threeDSTimeoutMs: number
  /** requests per minute and token (a token's own limit overrides it); 0 turns the limit off */
  rateLimitPerMinute: number
  /** the sandbox's one-time code */
  otpCode: string
  /** after how long the emulated mobile operator confirms or rejects (phones ending 0000 / 0001) */
  mobileOperatorDelayMs: number
}

function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const port = Number(env.PORT ?? 3000)
  const timeZone = env.SERVICE_TIME_ZONE || 'UTC'
  try {
    new Intl.DateTimeFormat('en-US', { timeZone })
  } catch {
    throw new Error(`SERVICE_TIME_ZONE=${timeZone} is not an IANA time zone`)
  }
  return {
    port,
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    timeZone,
    secretKey: env.SECRET_KEY ?? '',
    databasePoolSize: Math.max(1, Number(env.DATABASE_POOL_SIZE ?? 10) || 10),
    threeDSTimeoutMs: 15 * 60_000,
    rateLimitPerMinute: Math.max(0, Number(env.RATE_LIMIT_PER_MINUTE ?? 6000) || 0),
    otpCode: env.SANDBOX_OTP_CODE || '1234',
    mobileOperatorDelayMs: Math.max(0, Number(env.MOBILE_OPERATOR_DELAY_MS ?? 3000) || 0),
  }
}

let cached: Settings | undefined
export function settings(): Settings {
  cached ??= readSettings()
  return cached
}
