// What every instance runs besides answering requests: the scheduler of time-driven changes and the
// notification delivery worker (each can be turned off: SCHEDULER=off, NOTIFICATIONS_WORKER=off). Both
// stop claiming work once SIGTERM comes (Next.js then stops accepting, finishes the requests in flight
// and exits); whatever they leave is still in the database for the next pass of any instance.
import { processPolicy } from './notifications/callback-url'
import { startDeliveryWorker } from './notifications/delivery'
import { withPaymentToken } from './payments/notification-body'
import { startScheduler } from './scheduler/time-driven-changes'

export function startInstanceWork(env: NodeJS.ProcessEnv = process.env): void {
  // a malformed NOTIFY_ALLOW_NETWORKS stops the start here, not a request later
  processPolicy()
  if (env.SCHEDULER !== 'off') process.once('SIGTERM', startScheduler())
  // the resources' bodies as posted: payments fill in their token (the only resource with notifications)
  const asSent = (n: { type: string; body: string; resourceRef: string }) =>
    withPaymentToken(n.body, n.type, n.resourceRef)
  if (env.NOTIFICATIONS_WORKER !== 'off') process.once('SIGTERM', startDeliveryWorker(asSent))
}
