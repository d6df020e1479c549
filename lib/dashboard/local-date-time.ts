// The New bill form's deadline, in the browser: a datetime-local value is the merchant's local time; it is
// sent as an ISO 8601 date-time with the browser's own offset for that moment, so the server never
// guesses a time zone. Pure functions of the runtime's time zone (the browser's; TZ in tests).

const pad = (n: number) => String(n).padStart(2, '0')

/** a datetime-local value (YYYY-MM-DDThh:mm) of a moment, in the local time zone */
export const localInput = (d: Date) =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`

/**
 * a datetime-local value as `YYYY-MM-DDThh:mm:ss±hh:mm` with the local offset at that moment; null when it is no
 * date-time
 */
export function withLocalOffset(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return null
  const d = new Date(value) // a date-time without an offset is local time
  if (Number.isNaN(d.getTime())) return null
  const offset = -d.getTimezoneOffset()
  const abs = Math.abs(offset)
  // the moment's own local fields: a time inside a daylight-saving gap is written as the runtime moved it
  return `${localInput(d)}:${pad(d.getSeconds())}${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
}
