// The dashboard forms' zod, told not to probe whether it may compile code (new Function): the dashboard's
// Content-Security-Policy refuses that, and the browser reports each refusal as an error. zod keeps the setting
// process-wide, so only the browser is told: on the server the API's schemas keep their compiled checks.
import { z } from 'zod'

if (typeof window !== 'undefined') z.config({ jitless: true })

export { z }
