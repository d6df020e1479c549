// The metrics' route label: every route the app has (its files under app/ and pages/) reduces to its
// own template, whatever ids its path carries; anything else is `other`; the method label is bounded.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { methodLabel, ROUTE_TEMPLATES, routeTemplate } from '../../lib/observability/route-template.ts'

/** the URL templates of the app's routes, from its files: `[siteId]` → `{siteId}`, route groups `(site)` left out */
function appRoutes(): string[] {
  const routes: string[][] = []
  const walk = (dir: string, segments: string[], isRoute: (file: string) => string | null) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const group = entry.name.startsWith('(') && entry.name.endsWith(')')
      if (entry.isDirectory()) walk(path.join(dir, entry.name), group ? segments : [...segments, entry.name], isRoute)
      else {
        const last = isRoute(entry.name)
        if (last !== null) routes.push(last ? [...segments, last] : segments)
      }
    }
  }
  // app/: a route.ts or page.tsx serves its folder's path; the icon is a route of its own
  walk('app', [], (file) => (/^(route\.ts|page\.tsx)$/.test(file) ? '' : file === 'icon.svg' ? file : null))
  // the pages router: pages/pay/[invoiceUid].tsx (not _document)
  walk('pages', [], (file) => (file.endsWith('.tsx') && !file.startsWith('_') ? file.replace(/\.tsx$/, '') : null))
  return (
    routes
      // the API's catch-all answers 404 for unknown paths: those are `other`
      .filter((r) => !r.some((s) => s.startsWith('[...')))
      .map((r) => '/' + r.map((s) => s.replace(/^\[(\w+)\]$/, '{$1}')).join('/'))
  )
}

/** a path of the template, each parameter an id no label may carry */
const pathOf = (template: string, id: string) => template.replace(/\{\w+\}/g, id)

test('every route of app/ and pages/ has its template, and its paths reduce to it', () => {
  const routes = appRoutes()
  assert.ok(routes.length > 30, `found ${routes.length} routes`)
  for (const template of routes) {
    assert.ok(ROUTE_TEMPLATES.includes(template), `${template} has no template in lib/observability/route-template.ts`)
    const id = `id-${Math.random().toString(36).slice(2)}`
    assert.equal(routeTemplate(pathOf(template, id)), template)
    assert.equal(
      routeTemplate(`${pathOf(template, id)}/?token=${id}`),
      template,
      'a trailing slash and a query change nothing',
    )
  }
  for (const template of ROUTE_TEMPLATES)
    assert.ok(routes.includes(template), `${template} is no route of the app any more`)
})

test('the partner aliases reduce to the API templates', () => {
  assert.equal(
    routeTemplate('/partner/payin/v1/sites/s1/payments/p1/captures/c1'),
    '/api/sites/{siteId}/payments/{paymentId}/captures/{captureId}',
  )
  assert.equal(routeTemplate('/partner/v1/sites/s1/bills/b1/details'), '/api/sites/{siteId}/bills/{billId}/details')
  assert.equal(routeTemplate('/partner/v1/health'), '/api/health')
})

test('a literal segment wins over a parameter; static files are grouped; anything else is other', () => {
  assert.equal(routeTemplate('/dashboard/bills/new'), '/dashboard/bills/new')
  assert.equal(routeTemplate('/dashboard/bills/bill-7'), '/dashboard/bills/{billId}')
  assert.equal(routeTemplate('/_next/static/chunks/app-4f3a.js'), '/_next/static/*')
  assert.equal(routeTemplate('/_next/image?url=x'), '/_next/*')
  assert.equal(routeTemplate('/_pay/form-1a2b.js'), '/_pay/*')
  for (const unknown of [
    '/nope',
    '/api/nope',
    '/api/sites/s1',
    '/api/sites/s1/payments',
    '/api//health',
    '/API/health',
    '*',
    'http://host/api/health',
    '/pay',
    `/${'a/'.repeat(3000)}`,
  ])
    assert.equal(routeTemplate(unknown), 'other', unknown)
})

test('dot segments are resolved as Next.js resolves them before routing: the route that answers, not the prefix the path starts with', () => {
  assert.equal(routeTemplate('/_next/../api/metrics'), '/api/metrics')
  assert.equal(routeTemplate('/_next/static/../../api/metrics'), '/api/metrics')
  assert.equal(routeTemplate('/api/./metrics'), '/api/metrics')
  assert.equal(routeTemplate('/api/%2e/metrics'), '/api/metrics')
  assert.equal(routeTemplate('/api/.%2E/api/sites/s1/payments/p1'), '/api/sites/{siteId}/payments/{paymentId}')
  assert.equal(routeTemplate('/partner/v1/../v1/health?x=/..'), '/api/health')
  assert.equal(routeTemplate('/pay/../_next/static/a.js'), '/_next/static/*')
  // past the root stays at the root; an encoded slash is no separator
  assert.equal(routeTemplate('/../../api/health'), '/api/health')
  assert.equal(routeTemplate('/x/..%2fapi/health'), 'other')
})

test('the method label is one of the HTTP methods or other', () => {
  for (const m of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) assert.equal(methodLabel(m), m)
  for (const m of ['get', 'PROPFIND', 'X'.repeat(100), undefined]) assert.equal(methodLabel(m), 'other')
})
