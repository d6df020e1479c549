// The front door's decisions, alone: which request targets and methods reach Next.js (and as what),
// and which address a request comes from.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { API_ROUTE_METHODS } from '../../lib/http/api-routes.ts'
import { admitMessage, admitTarget, clientAddress, dropNextHeaders, isHostValue } from '../../lib/http/front-door.ts'
import { API_ROUTES } from '../../lib/openapi/api-document.ts'

test('targets: trailing slashes dropped, query kept, malformed or control-bearing paths refused', () => {
  assert.deepEqual(admitTarget('/api/health/'), { pass: true, url: '/api/health' })
  assert.deepEqual(admitTarget('/pay/x//?a=%20b'), { pass: true, url: '/pay/x?a=%20b' })
  assert.deepEqual(admitTarget('/'), { pass: true, url: '/' })
  assert.deepEqual(admitTarget('/api/sites/s%C3%A9/x'), { pass: true, url: '/api/sites/s%C3%A9/x' })
  // a query is judged by the page or handler (Next.js reads it leniently): a payer's `?utm=50%off` opens the page
  assert.deepEqual(admitTarget('/pay/x?utm=50%off&q=%E9'), { pass: true, url: '/pay/x?utm=50%off&q=%E9' })
  // many slashes: stripped by a scan, whatever their number (a regex would backtrack quadratically)
  assert.deepEqual(admitTarget('/x' + '/'.repeat(100_000)), { pass: true, url: '/x' })
  assert.deepEqual(admitTarget('/x' + '/'.repeat(100_000) + 'a'), { pass: true, url: '/x' + '/'.repeat(100_000) + 'a' })
  for (const bad of [
    '/api/%',
    '/api/%zz',
    '/api/%C0%AF',
    '/a%00',
    '/a%1f',
    'ftp://evil/api/x',
    'http:///api/x',
    'http://u@evil/api/x',
    '*',
  ]) {
    const r = admitTarget(bad)
    assert.equal(r.pass, false, bad)
    if (!r.pass) assert.equal(r.error.status, 400, bad)
  }
  for (const bare of ['/api', '/api/', '/partner/v1', '/Partner/Payin/V1/', '/partner/x']) {
    const r = admitTarget(bare)
    assert.equal(r.pass, false, bare)
    if (!r.pass) assert.equal(r.error.status, 404, bare)
  }
  assert.equal(admitTarget('/partner/v1/sites/a/payments/b').pass, true)
  // an API prefix written otherwise (letter case, escapes): the JSON 404, not Next.js's HTML page
  for (const odd of [
    '/API/health',
    '/Api/v1',
    '/%61pi/health',
    '/api%2fhealth',
    '/api%2Fsites%2Fdemo',
    '/partner%2fv1/sites/d/payments/x',
    '/partner/v1%2fsites/d/payments/x',
    '/Partner/V1/sites/d/bills/b',
  ]) {
    const r = admitTarget(odd)
    assert.equal(r.pass, false, odd)
    if (!r.pass) assert.deepEqual([r.error.status, r.error.errorCode], [404, 'payin.resource.not.found'], odd)
  }
  for (const page of ['/apis', '/api-docs', '/partners', '/docs']) assert.equal(admitTarget(page).pass, true, page)
})

test('absolute-form targets: served as their path (judged as any other), their authority the Host', () => {
  assert.deepEqual(admitTarget('http://shop.example:3000/api/health'), {
    pass: true,
    url: '/api/health',
    host: 'shop.example:3000',
  })
  assert.deepEqual(admitTarget('HTTPS://[::1]:443/pay/x/?a=1'), { pass: true, url: '/pay/x?a=1', host: '[::1]:443' })
  assert.deepEqual(admitTarget('http://h'), { pass: true, url: '/', host: 'h' })
  assert.deepEqual(admitTarget('http://h?x'), { pass: true, url: '/?x', host: 'h' })
  // the path's own rules still hold: no URL() resolving its dot segments first
  for (const bad of ['http://h/api/../api/health', 'http://h/api/%zz', 'http://h/a#b', 'http://h:x/api/health'])
    assert.equal(admitTarget(bad).pass, false, bad)
  assert.deepEqual(admitTarget('http://h', 'TRACE').pass, false)
})

test('API paths with an empty, `.` or `..` segment (raw or percent-encoded) or a backslash are refused; pages are left to Next.js', () => {
  for (const bad of [
    '/api/../x',
    '/api/%2e%2e/x',
    '/api/%2E%2e',
    '/api/.',
    '/api/./health',
    '/api//health',
    '//api/health',
    '/API//health',
    '/partner/v1//sites',
    '/partner/v1/sites/%2e/b',
    '/api\\health',
    '/api/x/.%2E/y',
    '/x/../api/health',
    '/pay/%2e%2e/partner/v1/x',
    '/x\\..\\api/health',
    '/x/../%61pi/health',
  ]) {
    const r = admitTarget(bad)
    assert.equal(r.pass, false, bad)
    if (!r.pass) assert.deepEqual([r.error.status, r.error.errorCode], [400, 'validation.error'], bad)
  }
  // a path starting with // is no authority here (URL() would read one, and throw on `//a:b`)
  for (const odd of ['//a:b/x', '//evil:99999/api', '//[::1/api', '//999.999.999.999/../api/x', '//evil:99999/..'])
    assert.doesNotThrow(() => admitTarget(odd), odd)
  assert.equal(admitTarget('//999.999.999.999/../api/x').pass, false)
  for (const image of [
    '/_next/image',
    '/_next/image/',
    '/_next/image?url=%2Fx&w=64&q=75',
    '/_next/Image',
    '/_next/./image',
    '/./_next/image',
    '/x/../_next/image',
    '/_next/x/%2E%2E/image',
    '/_next/static/%2e%2e/image?url=%2F%25',
  ])
    assert.deepEqual(
      admitTarget(image).pass ? null : (admitTarget(image) as { error: { status: number } }).error.status,
      404,
      image,
    )
  for (const fine of [
    '/api/health//',
    '/api/sites/a.b/payments/..c',
    '/api/sites/s/payments/%2e%2e%2e',
    '/pay/../x',
    '/pay//x',
    '/pay/./x',
  ])
    assert.equal(admitTarget(fine).pass, true, fine)
})

test('the message: Transfer-Encoding exactly chunked (any case) or none; Host once and a host on HTTP/1.1', () => {
  const message = (httpVersion: string, ...rawHeaders: string[]) => admitMessage({ httpVersion, rawHeaders })
  assert.equal(message('1.1', 'Host', 'a'), null)
  assert.equal(message('1.1', 'Host', 'a', 'Transfer-Encoding', 'chunked'), null)
  assert.equal(message('1.1', 'host', 'a', 'transfer-encoding', ' CHUNKED '), null)
  assert.equal(message('1.0'), null)
  for (const te of ['gzip', 'xchunked', 'gzip, chunked', 'chunked, chunked', '', 'identity'])
    assert.equal(message('1.1', 'Host', 'a', 'Transfer-Encoding', te)?.status, 400, te)
  assert.equal(message('1.1', 'Host', 'a', 'Transfer-Encoding', 'chunked', 'transfer-encoding', 'chunked')?.status, 400)
  assert.match(message('1.1')?.description ?? '', /needs a Host/)
  assert.match(message('1.1', 'Host', 'a', 'HOST', 'a')?.description ?? '', /more than one Host/)
  assert.match(message('1.1', 'Host', 'a b')?.description ?? '', /not a host/)
  for (const host of [
    '',
    'a',
    'a.b:80',
    '127.0.0.1:3000',
    '[::1]',
    '[::ffff:1.2.3.4]:8080',
    'xn--e1afmkfd.xn--p1ai',
    'a%20b',
    '[v1.x]',
  ])
    assert.equal(isHostValue(host), true, host)
  for (const host of ['a b', 'a/b', 'u@a', '[::1', 'a:b', 'a:80:80', 'a\\b', 'a?b', 'a#b', 'é'])
    assert.equal(isHostValue(host), false, host)
})

test("Next.js's own request headers are dropped on API paths, kept on pages", () => {
  const sent = () => ({
    host: 'h',
    rsc: '1',
    'next-router-state-tree': '[]',
    'next-action': 'x',
    'x-middleware-subrequest': 'm',
    authorization: 'Bearer t',
  })
  for (const url of ['/api/health', '/partner/v1/sites/s/bills/b?x=1', '/API/x']) {
    const headers = sent()
    dropNextHeaders(url, headers)
    assert.deepEqual(headers, { host: 'h', authorization: 'Bearer t' }, url)
  }
  const page = sent()
  dropNextHeaders('/pay/x', page)
  assert.deepEqual(page, sent())
})

test("methods: those the service serves pass; any other is a 405 with the route's Allow, or the 404 of an unknown API path", () => {
  for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
    assert.equal(admitTarget('/api/sites/s/payments/p', method).pass, true, method)
  const refused = (target: string, method: string) => {
    const r = admitTarget(target, method)
    assert.equal(r.pass, false, `${method} ${target}`)
    return r.pass ? null : { status: r.error.status, errorCode: r.error.errorCode, allow: r.error.headers?.Allow }
  }
  for (const method of ['TRACE', 'PROPFIND', 'MKCOL', 'PURGE', 'LINK', 'UNLINK', 'SEARCH', 'COPY', 'MOVE', 'LOCK'])
    assert.deepEqual(
      refused('/api/sites/s/payments/p', method),
      { status: 405, errorCode: 'http.method.not.allowed', allow: 'PUT, GET' },
      method,
    )
  assert.deepEqual(refused('/partner/payin/v1/sites/s/payments/p/complete/', 'PROPFIND'), {
    status: 405,
    errorCode: 'http.method.not.allowed',
    allow: 'POST',
  })
  assert.deepEqual(refused('/partner/v1/health?x=1', 'TRACE'), {
    status: 405,
    errorCode: 'http.method.not.allowed',
    allow: 'GET',
  })
  assert.deepEqual(refused('/api/sites/s/nothing', 'PROPFIND'), {
    status: 404,
    errorCode: 'payin.resource.not.found',
    allow: undefined,
  })
  assert.deepEqual(refused('/api/sites/s/payments/', 'TRACE'), {
    status: 404,
    errorCode: 'payin.resource.not.found',
    allow: undefined,
  })
  // pages: read and posted
  assert.deepEqual(refused('/pay/x', 'TRACE'), {
    status: 405,
    errorCode: 'http.method.not.allowed',
    allow: 'GET, HEAD, POST',
  })
  assert.deepEqual(refused('/', 'MKCOL'), {
    status: 405,
    errorCode: 'http.method.not.allowed',
    allow: 'GET, HEAD, POST',
  })
  // the target's own problems first
  assert.equal(refused('/api/%zz', 'TRACE')?.status, 400)
  assert.equal(refused('/api', 'TRACE')?.status, 404)
})

test("the front door's API routes and their methods are the API's (API_ROUTES), in their handlers' Allow order", () => {
  assert.deepEqual(
    Object.fromEntries(Object.entries(API_ROUTE_METHODS).map(([t, m]) => [t, [...m]])),
    Object.fromEntries(Object.entries(API_ROUTES).map(([t, route]) => [t, Object.keys(route.endpoints)])),
  )
})

test("client address: the socket's peer unless proxies of one's own are trusted", () => {
  const spoofed = { 'x-forwarded-for': '6.6.6.6' }
  assert.equal(clientAddress(spoofed, '::ffff:127.0.0.1', 0), '127.0.0.1')
  // IPv6: one subscriber's /64 is one client
  assert.equal(clientAddress({}, '::1', 0), '0:0:0:0::/64')
  assert.equal(clientAddress({}, '2001:db8:1:2:aaaa::1', 0), '2001:db8:1:2::/64')
  assert.equal(clientAddress({}, '2001:0DB8:0001:0002:ffff:1:2:3', 0), '2001:db8:1:2::/64')
  assert.equal(clientAddress({}, 'fe80::1%eth0', 0), 'fe80:0:0:0::/64')
  // behind one proxy: the proxy appended the real client after whatever the client wrote
  assert.equal(clientAddress({ 'x-forwarded-for': '6.6.6.6, 203.0.113.7' }, '10.0.0.2', 1), '203.0.113.7')
  assert.equal(clientAddress({ 'x-forwarded-for': '6.6.6.6, 203.0.113.7, 10.0.0.3' }, '10.0.0.2', 2), '203.0.113.7')
  // a proxy that sent no header: the peer
  assert.equal(clientAddress({}, '10.0.0.2', 1), '10.0.0.2')
})
