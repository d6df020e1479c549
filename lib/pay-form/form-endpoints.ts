// The payment page's own server endpoints: no token, same-origin only (cross-site posts are refused).
import { z } from 'zod'
import { apiRoute, endpoint } from '../api/api-route'
import { isCrossSite } from '../http/api-route'
import { BodyTooLarge, ClientAborted, NotAForm, readFormFields } from '../http/bounded-body'
import { ApiError } from '../http/api-error'
import { CLIENT_CLOSED, logRequest } from '../http/request-log'
import { requestIds } from '../http/trace-id'
import { requestClientAddress } from '../http/front-door'
import { codeFormSchema } from './form-schema'
import { attemptStatus, startAttempt, submitCode, threeDSReturn } from './form-service'
import { pageOptions, pageQuery } from './page-options'

/** the payUrl's options the page carries on its own addresses (page-options.ts) */
const optionsOf = (req: Request) => pageOptions(new URL(req.url).searchParams)

const billPath = z.object({ invoiceUid: z.uuid('must be a UUID').transform((s) => s.toLowerCase()) })
// an id of another shape is an unknown attempt (404), like a wrong one
const attemptPath = billPath.extend({ attemptId: z.string().max(200) })

export const attemptsRoute = apiRoute({
  POST: endpoint({
    access: 'payer',
    params: billPath,
    body: z.looseObject({}, { error: 'must be a JSON object' }),
    handle: ({ params, body, req }) =>
      startAttempt(params.invoiceUid, body, requestClientAddress(req.headers), optionsOf(req)),
  }),
})

export const attemptRoute = apiRoute({
  GET: endpoint({
    access: 'payer',
    params: attemptPath,
    handle: ({ params, req }) => attemptStatus(params.invoiceUid, params.attemptId, optionsOf(req)),
  }),
})

export const attemptCodeRoute = apiRoute({
  POST: endpoint({
    access: 'payer',
    params: attemptPath,
    body: codeFormSchema,
    handle: ({ params, body, req }) => submitCode(params.invoiceUid, params.attemptId, body.code, optionsOf(req)),
  }),
})

/** TermUrl of the page's 3-D Secure step: a form POST of PaRes and MD from the access-control page */
export async function threeDSReturnRoute(
  req: Request,
  ctx: { params: Promise<{ invoiceUid: string }> },
): Promise<Response> {
  const started = performance.now()
  const { traceId, requestId } = requestIds(req)
  const { invoiceUid } = await ctx.params
  let location = `/pay/${encodeURIComponent(invoiceUid)}${pageQuery(optionsOf(req))}`
  let status = 303
  let failure: unknown
  try {
    if (isCrossSite(req)) status = 403
    else {
      const form = await readFormFields(req)
      location = await threeDSReturn(
        invoiceUid.toLowerCase(),
        String(form.get('PaRes') ?? ''),
        String(form.get('MD') ?? ''),
        optionsOf(req),
      )
    }
  } catch (e) {
    // a post over 64 KiB is refused; an unknown bill or payment, or a malformed post: back to the bill's page, which
    // says what it can
    if (e instanceof BodyTooLarge) status = 413
    // the payer's browser went away mid-post: no one to answer (499 in the log, a warning)
    else if (e instanceof ClientAborted) status = CLIENT_CLOSED
    // a post that is no form (a client's mistake, not the service's): back to the bill's page, as an unknown payment
    else if (e instanceof NotAForm) failure = undefined
    // anything unexpected (the database gone): the payer still goes back to the bill's page, the log says what failed
    else if (!(e instanceof ApiError) || e.status >= 500) failure = e
  }
  logRequest({ req, traceId, requestId, status, started, failure })
  const headers = {
    'X-Trace-Id': traceId,
    'X-Request-Id': requestId,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  }
  if (status === CLIENT_CLOSED) return new Response(null, { status, headers })
  if (status === 403) return new Response('Cross-site request refused', { status, headers })
  if (status === 413) return new Response('Request body exceeds 64 KiB', { status, headers })
  return new Response(null, { status, headers: { ...headers, Location: location } })
}
