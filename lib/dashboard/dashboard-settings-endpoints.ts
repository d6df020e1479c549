// The settings' state-changing requests (under /dashboard/actions/settings/): the notification URL, a
// new signing secret, a new API token, a token revoked, the hold setting, the allowed frame origins. Each goes
// through the API's wrapper (lib/http/api-route.ts) with `access: 'dashboard'`: the service's own origin and a live
// session are required, answers and errors are in the contract's shape. The answers that carry a secret or a token
// are never stored by a cache (Cache-Control: no-store, as every JSON answer of the wrapper, said again
// here because it must hold).
import { z } from 'zod'
import { apiRoute, endpoint } from '../api/api-route'
import { Reply } from '../http/api-route'
import { MAX_HOLD_HOURS, MIN_HOLD_HOURS } from '../payments/hold-expiry'
import { MAX_FRAME_ORIGINS } from '../sites/frame-origins'
import {
  changeFrameOrigins,
  changeHolds,
  changeNotifyUrl,
  changePublicKey,
  createToken,
  ORIGINS_FIELD,
  revokeToken,
  rotateSecret,
  URL_FIELD,
} from './dashboard-settings'

const noParams = z.object({})
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' }

export const notifyUrlBodySchema = z.object({
  // blank: no site URL (notifications go to each operation's callbackUrl only); the rule itself is the service's
  [URL_FIELD]: z.string({ error: 'must be a string' }),
})

export const holdsBodySchema = z.object({
  action: z.enum(['capture', 'reverse'], { error: 'must be capture or reverse' }),
  hours: z
    .int({ error: 'must be a whole number of hours' })
    .min(MIN_HOLD_HOURS, `must be at least ${MIN_HOLD_HOURS}`)
    .max(MAX_HOLD_HOURS, `must be at most ${MAX_HOLD_HOURS} (5 days)`),
})

export const frameOriginsBodySchema = z.object({
  // the whole list (empty: no one may frame the site's pages); each origin's rule is the service's
  [ORIGINS_FIELD]: z
    .array(z.string({ error: 'must be a string' }).max(200, 'must be at most 200 characters'), {
      error: 'must be an array of origins',
    })
    .max(MAX_FRAME_ORIGINS, `must list at most ${MAX_FRAME_ORIGINS} origins`),
})

export const rotateSecretBodySchema = z.object({
  /** after a leak: the previous secret stops signing at once */
  immediately: z.boolean({ error: 'must be true or false' }).optional().default(false),
})

export const notifyUrlRoute = apiRoute({
  POST: endpoint({
    access: 'dashboard',
    params: noParams,
    body: notifyUrlBodySchema,
    handle: async ({ session, body }) => changeNotifyUrl(session!, body[URL_FIELD]),
  }),
})

export const holdsRoute = apiRoute({
  POST: endpoint({
    access: 'dashboard',
    params: noParams,
    body: holdsBodySchema,
    handle: async ({ session, body }) => changeHolds(session!, body),
  }),
})

export const frameOriginsRoute = apiRoute({
  POST: endpoint({
    access: 'dashboard',
    params: noParams,
    body: frameOriginsBodySchema,
    handle: async ({ session, body }) => changeFrameOrigins(session!, body[ORIGINS_FIELD]),
  }),
})

export const rotateSecretRoute = apiRoute({
  POST: endpoint({
    access: 'dashboard',
    params: noParams,
    body: rotateSecretBodySchema,
    bodyOptional: true,
    handle: async ({ session, body }) => new Reply(await rotateSecret(session!, body.immediately), NO_STORE),
  }),
})

export const rotatePublicKeyRoute = apiRoute({
  POST: endpoint({
    access: 'dashboard',
    params: noParams,
    handle: async ({ session }) => new Reply(await changePublicKey(session!), NO_STORE),
  }),
})

export const createTokenRoute = apiRoute({
  POST: endpoint({
    access: 'dashboard',
    params: noParams,
    handle: async ({ session }) => new Reply(await createToken(session!), NO_STORE),
  }),
})

export const revokeTokenRoute = apiRoute({
  POST: endpoint({
    access: 'dashboard',
    params: z.object({ tokenId: z.uuid({ error: 'must be a token’s id' }) }),
    handle: async ({ session, params }) => revokeToken(session!, params.tokenId),
  }),
})
