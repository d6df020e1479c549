/*
 * The checkout popup library (GET /popup/v2.js; issue 31), hand-written ES5 with no dependencies: a merchant's page
 * loads it with <script src="<service>/popup/v2.js"> and calls
 *   QiwiCheckout.openInvoice({ payUrl })      a bill's payment page (its payUrl) in a popup
 *   QiwiCheckout.createInvoice(params)        a new bill through /create?publicKey=… (publicKey, amount, phone,
 *                                             email, account, comment, customFields, lifetime, …), in a popup
 * Each answers a promise: resolved with { status: 'PAID', billId, invoiceUid } once the bill's page says it is paid,
 * rejected with { reason } when the payment fails ('PAYMENT_FAILED'), the page cannot be shown
 * ('INITIALIZATION_FAILED'), the payer closes the popup ('POPUP_CLOSED') or the arguments are wrong
 * ('INVALID_PARAMS'). The page tells its opener with postMessage, and only when the opener's origin is one of the
 * site's allowed frame origins (lib/pay-form/embed-events.ts); the library hears only the popup it opened, from the
 * service's origin, and of one bill only: openInvoice's payUrl names it; createInvoice's is the bill the link made, the
 * one its popup's first message names. A page of another bill in the popup settles nothing. The promise is the payer's
 * word only: the merchant confirms the payment on its server (a notification, or GET of the bill). Where the browser
 * blocks the popup, the page itself goes to the payment page (a redirect): the promise then never settles, as the
 * merchant's page is left.
 * Runs as a classic script in every browser with Promise: ES5 syntax (the linter holds it to ES5), no module.
 */
;(function (w) {
  'use strict'
  var script = document.currentScript
  // the service: where this script was loaded from
  var service = /^https?:\/\/[^/]+/i.exec((script && script.src) || '')
  var serviceOrigin = service ? service[0] : w.location.origin
  var current = null

  function fail(reason) {
    return Promise.reject({ reason: reason })
  }

  /** the bill a payUrl names (its page /pay/{invoiceUid}, or production's /form?invoiceUid=…), else null */
  function invoiceUidOf(url) {
    var m = /\/pay\/([0-9a-f-]{36})(?:[?#]|$)/i.exec(url) || /[?&]invoice_?uid=([0-9a-f-]{36})(?:[&#]|$)/i.exec(url)
    return m ? m[1].toLowerCase() : null
  }

  function open(url, invoiceUid) {
    // one popup at a time: a new call ends the previous one (as if closed)
    if (current) current('POPUP_CLOSED')
    var width = 480
    var height = 720
    var left = Math.max(0, (w.screenX || 0) + ((w.outerWidth || width) - width) / 2)
    var top = Math.max(0, (w.screenY || 0) + ((w.outerHeight || height) - height) / 2)
    var popup = w.open(url, 'qiwi-checkout', 'width=' + width + ',height=' + height + ',left=' + left + ',top=' + top)
    if (!popup) {
      w.location.assign(url)
      return new Promise(function () {})
    }
    return new Promise(function (resolve, reject) {
      var timer
      function end(reason, value) {
        if (current !== stop) return
        current = null
        w.clearInterval(timer)
        w.removeEventListener('message', heard)
        if (reason) reject({ reason: reason })
        else resolve(value)
        if (reason !== 'POPUP_CLOSED')
          try {
            popup.close()
          } catch (e) {
            // already gone
          }
      }
      function stop(reason) {
        end(reason)
      }
      function heard(e) {
        var d = e.data
        if (e.source !== popup || e.origin !== serviceOrigin || !d || typeof d !== 'object') return
        if (typeof d.invoiceUid !== 'string') return
        // the popup's bill: the payUrl's, else the first message's (the bill a /create link made)
        if (!invoiceUid) invoiceUid = d.invoiceUid.toLowerCase()
        if (d.invoiceUid.toLowerCase() !== invoiceUid) return
        if (d.qiwiCheckout === 'PAYMENT_SUCCEEDED')
          end(null, { status: 'PAID', billId: d.billId, invoiceUid: d.invoiceUid })
        else if (d.qiwiCheckout === 'PAYMENT_FAILED' || d.qiwiCheckout === 'INITIALIZATION_FAILED') end(d.qiwiCheckout)
      }
      current = stop
      w.addEventListener('message', heard)
      // a closed popup sends no message: its window says so
      timer = w.setInterval(function () {
        if (popup.closed) end('POPUP_CLOSED')
      }, 400)
    })
  }

  function openInvoice(params) {
    var payUrl = params && params.payUrl
    if (typeof payUrl !== 'string' || !/^https?:\/\//i.test(payUrl)) return fail('INVALID_PARAMS')
    return open(payUrl, invoiceUidOf(payUrl))
  }

  var FIELDS = ['billId', 'currency', 'phone', 'email', 'account', 'comment', 'lifetime', 'successUrl', 'paymentMethod']

  function createInvoice(params) {
    if (!params || typeof params.publicKey !== 'string' || !params.publicKey) return fail('INVALID_PARAMS')
    var q = ['publicKey=' + encodeURIComponent(params.publicKey)]
    var amount = Number(params.amount)
    if (params.amount !== undefined && params.amount !== null && params.amount !== '') {
      if (!(amount > 0)) return fail('INVALID_PARAMS')
      // rounded down to kopecks, as the docs say
      q.push('amount=' + (Math.floor(amount * 100 + 1e-6) / 100).toFixed(2))
    }
    for (var i = 0; i < FIELDS.length; i++) {
      var v = params[FIELDS[i]]
      if (v !== undefined && v !== null && v !== '') q.push(FIELDS[i] + '=' + encodeURIComponent(String(v)))
    }
    var extras = params.customFields || {}
    for (var k in extras)
      if (Object.prototype.hasOwnProperty.call(extras, k) && extras[k] !== undefined && extras[k] !== null)
        q.push(encodeURIComponent('extras[' + k + ']') + '=' + encodeURIComponent(String(extras[k])))
    return open(serviceOrigin + '/create?' + q.join('&'), null)
  }

  w.QiwiCheckout = { openInvoice: openInvoice, createInvoice: createInvoice }
})(window)
