// One run of an asynchronous check at a time: whoever asks while it runs gets that run's result, and
// the next ask after it settled starts a new one (nothing is kept). For probes of the database
// (readiness, the metrics' read), so that a burst of requests makes one round trip, not a queue of them.
export function singleFlight<T>(run: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined
  return () =>
    (running ??= run().finally(() => {
      running = undefined
    }))
}
