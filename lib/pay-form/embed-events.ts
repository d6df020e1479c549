// What the payment page tells the merchant's page that embeds it (issue 31): the documented events, posted with
// postMessage to the site's allowed frame origins (lib/sites/frame-origins.ts) and to no one else. Framed (an
// iframe), the page posts the event's name, a string, to its parent, as production's form does; opened by the
// checkout popup library (GET /popup/v2.js), it posts { qiwiCheckout: event, billId, invoiceUid } to its opener, which
// the library reads. The browser delivers a message only when its targetOrigin is the receiver's real origin, so
// posting to each allowed origin reaches the embedder when (and only when) it is one of them; never to '*'.
// Posted from two places, by the same steps kept side by side here: the page's inline script (embedScript: the events
// of a page's load) and the form's script (postEmbedEvent: an attempt and its outcome).

export const EMBED_EVENTS = [
  'INITIALIZED',
  'PAYMENT_ATTEMPT',
  'PAYMENT_SUCCEEDED',
  'PAYMENT_FAILED',
  'INITIALIZATION_FAILED',
] as const
export type EmbedEvent = (typeof EMBED_EVENTS)[number]

/** who may hear the page's events, and what the opener's message names */
export interface Embedding {
  /** the site's allowed frame origins (never empty: a site without any gets no embedding) */
  origins: string[]
  billId: string
  invoiceUid: string
}

/**
 * The posting as the inline script's source (postEmbedEvent's steps): `e` the embedding, `n` the event; the parent's
 * origin, where the browser tells it (location.ancestorOrigins), narrows the targets to it, so that no other allowed
 * origin is tried (each mismatch is a console error).
 */
const POST_SOURCE = [
  '(e,n)=>{const s=(t,m,o)=>{try{t.postMessage(m,o)}catch(x){}};try{const w=window,a=location.ancestorOrigins,',
  'p=a&&a.length&&e.origins.includes(a[0])?[a[0]]:e.origins;',
  'if(w.parent!==w)for(const o of p)s(w.parent,n,o);',
  'if(w.opener&&w.opener!==w)for(const o of e.origins)',
  's(w.opener,{qiwiCheckout:n,billId:e.billId,invoiceUid:e.invoiceUid},o)}catch(x){}}',
].join('')

/** one posting: a target that refuses it (an origin it cannot parse, a closed opener) stops none of the others */
function postTo(target: Window, message: unknown, origin: string): void {
  try {
    target.postMessage(message, origin)
  } catch {
    // nothing to tell that one
  }
}

/** posts the event to the page's embedder, if any and allowed (the form's script) */
export function postEmbedEvent(e: Embedding | null | undefined, event: EmbedEvent): void {
  if (!e || typeof window === 'undefined') return
  try {
    const w = window
    const a = location.ancestorOrigins
    const parents = a && a.length && e.origins.includes(a[0]) ? [a[0]] : e.origins
    if (w.parent !== w) for (const o of parents) postTo(w.parent, event, o)
    if (w.opener && w.opener !== w)
      for (const o of e.origins)
        postTo(w.opener, { qiwiCheckout: event, billId: e.billId, invoiceUid: e.invoiceUid }, o)
  } catch {
    // an embedder that went away (a closed opener): nothing to tell
  }
}

/** the page's inline script that posts the events of its load, in order (JSON inside a script: `<` escaped) */
export const embedScript = (e: Embedding, events: readonly EmbedEvent[]) =>
  `(()=>{const e=${JSON.stringify(e).replace(/</g, '\\u003c')},p=${POST_SOURCE};` +
  `for(const n of ${JSON.stringify(events)})p(e,n)})()`
