// The dashboard forms' zod, told not to probe whether it may compile code (new Function): the dashboard's
// Content-Security-Policy refuses that, and the browser reports each refusal as an error.
import { z } from 'zod'

z.config({ jitless: true })

export { z }
