// The dashboard's lists go page by page with a cursor, never an offset: the last row's creation time and
// id, so a page never repeats or skips a row written meanwhile. A cursor that does not decode is ignored
// (the first page), never an error.
import { Prisma } from '../generated/prisma/client'

/** a UUID as PostgreSQL's uuid type takes it */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface Cursor {
  createdAt: Date
  id: string
}

export const encodeCursor = (r: Cursor) => Buffer.from(JSON.stringify([r.createdAt.toISOString(), r.id])).toString('base64url')

export function decodeCursor(cursor: string | undefined): Cursor | null {
  if (!cursor || cursor.length > 200) return null
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown]
    if (typeof at !== 'string' || typeof id !== 'string' || !UUID.test(id)) return null
    const createdAt = new Date(at)
    if (Number.isNaN(createdAt.getTime())) return null
    return { createdAt, id }
  } catch {
    return null
  }
}

/** the condition (after a WHERE … AND) for the rows after the cursor, newest first; none without a cursor. `table`: the rows' alias in the query */
export function afterCursor(after: string | undefined, table?: string): Prisma.Sql | null {
  const cursor = decodeCursor(after)
  if (!cursor) return null
  const column = (name: string) => Prisma.raw(table ? `${table}."${name}"` : `"${name}"`)
  return Prisma.sql`(${column('createdAt')}, ${column('id')}) < (${cursor.createdAt}, ${cursor.id}::uuid)`
}

/** a page from rows read one past its size (ORDER BY "createdAt" DESC, id DESC LIMIT size + 1): the page, and the cursor after it when more follow */
export function pageOf<T extends Cursor>(rows: T[], size: number): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, size)
  return { page, nextCursor: rows.length > size ? encodeCursor(page[page.length - 1]) : null }
}
