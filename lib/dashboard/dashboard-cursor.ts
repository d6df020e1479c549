// The dashboard's lists go page by page with a cursor, never an offset: the last row's creation time and
// id, so a page never repeats or skips a row written meanwhile. A cursor that does not decode to what
// encodeCursor writes is ignored (the first page), never an error: the URL is the browser's to change.
/** a UUID as PostgreSQL's uuid type takes it */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface Cursor {
  createdAt: Date
  id: string
}

export const encodeCursor = (r: Cursor) =>
  Buffer.from(JSON.stringify([r.createdAt.toISOString(), r.id])).toString('base64url')

/**
 * An instant exactly as encodeCursor writes it (toISOString), in the years 0001–9999. JavaScript's Date
 * takes far more (years 0 and below, ±275760, `+010000-…`, and free text such as "1 January 200000") that
 * PostgreSQL's timestamptz cannot hold (4713 BC – 294276 AD) or its parameters cannot carry: the
 * statement would fail. A row's creation time is always in this range.
 */
const ISO_INSTANT = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

export function decodeCursor(cursor: string | undefined): Cursor | null {
  if (!cursor || cursor.length > 200) return null
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown]
    if (typeof at !== 'string' || !ISO_INSTANT.test(at) || typeof id !== 'string' || !UUID.test(id)) return null
    const createdAt = new Date(at)
    // a real instant, written back the same (no 2026-02-30, no 24:00)
    if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== at) return null
    return { createdAt, id }
  } catch {
    return null
  }
}

/**
 * a page from rows read one past its size (ORDER BY "createdAt" DESC, id DESC LIMIT size + 1): the page, and the cursor
 * after it when more follow
 */
export function pageOf<T extends Cursor>(rows: T[], size: number): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, size)
  return { page, nextCursor: rows.length > size ? encodeCursor(page[page.length - 1]) : null }
}
