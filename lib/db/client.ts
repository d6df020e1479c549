// The one Prisma client of a process (a pool of `DATABASE_POOL_SIZE` connections).
import { PrismaPg } from '@prisma/adapter-pg'
import { PrismaClient } from '../generated/prisma/client'
import { settings } from '../config'

export type Db = PrismaClient
export type Tx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>

const holder = globalThis as unknown as { payinDb?: PrismaClient }

export function db(): PrismaClient {
  if (!holder.payinDb) {
    const connectionString = process.env.DATABASE_URL
    if (!connectionString) throw new Error('DATABASE_URL is not set')
    // application_name tells this instance's sessions apart in pg_stat_activity
    const adapter = new PrismaPg({ connectionString, max: settings().databasePoolSize, application_name: `payin-${process.pid}` })
    // transactions wait for a pooled connection (and row locks) under load rather than fail fast
    holder.payinDb = new PrismaClient({ adapter, transactionOptions: { maxWait: 10_000, timeout: 20_000 } })
  }
  return holder.payinDb
}

export async function closeDb(): Promise<void> {
  await holder.payinDb?.$disconnect()
  holder.payinDb = undefined
}

/** A JSON column's value as a statement parameter (cast with `::jsonb`): SQL NULL for none. */
export const jsonParam = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value))

export function isUniqueViolation(e: unknown): boolean {
  return (e as { code?: string })?.code === 'P2002' || /duplicate key value/.test(String((e as Error)?.message ?? ''))
}

/** P2002 unique violation, P2034 write conflict / deadlock: the operation may be retried whole. */
export function isRetryable(e: unknown): boolean {
  const code = (e as { code?: string })?.code
  if (code === 'P2002' || code === 'P2034') return true
  const msg = String((e as Error)?.message ?? '')
  return /deadlock detected|could not serialize|duplicate key value/.test(msg)
}

/** Runs `work` (one transaction), again from the start when it lost a race to another request. */
export async function withRetry<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work()
    } catch (e) {
      if (i >= attempts || !isRetryable(e)) throw e
    }
  }
}
