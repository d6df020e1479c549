// The dashboard's lists go page by page with a cursor, never an offset: the last row's creation time and
// id, so a page never repeats or skips a row written meanwhile. A cursor that does not decode is ignored
// (the first page), never an error.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

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
