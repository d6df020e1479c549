// The dependency rules `npm run lint` enforces (dependency-cruiser), every one an error: no cycle in lib/,
// lib/ below the app, the Prisma client reached through known modules, and the layering of issue 27 —
// dependencies run one way: lib/http/ and lib/db/ know no module above them, lib/notifications/ is
// transport, bills and payments meet below both (lib/settlement/) and above both (lib/billing/).

/** an exact module path as a regular expression */
const exactly = (file) => `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`

// The modules outside lib/db/ that import the Prisma client (its generated module) today, frozen: the
// database is reached through them, and a new importer has to say why here.
const PRISMA_CLIENT_IMPORTERS = [
  'lib/dashboard/dashboard-cursor.ts',
  'lib/dashboard/dashboard-payments.ts',
  'lib/dashboard/session-store.ts',
  'lib/notifications/notification-store.ts',
  'lib/observability/database-metrics.ts',
  'lib/payments/capture-service.ts',
  'lib/payments/complete-service.ts',
  'lib/payments/flows/index.ts',
  'lib/payments/flows/payment-flow.ts',
  'lib/payments/methods/recurrent.ts',
  'lib/payments/methods/token.ts',
  'lib/payments/notification-body.ts',
  'lib/payments/payment-endpoints.ts',
  'lib/payments/payment-lifecycle.ts',
  'lib/payments/payment-notify.ts',
  'lib/payments/payment-service.ts',
  'lib/payments/payment-tokens.ts',
  'lib/payments/payment-wire.ts',
  'lib/payments/refund-service.ts',
  'lib/sandbox/sandbox-reset.ts',
  // the one module that opens a site's write (its statement fragments, the gate's and the clock's, are Prisma.sql)
  'lib/sandbox/site-write.ts',
  'lib/scheduler/time-driven-changes.ts',
  'lib/settlement/bill-store.ts',
  'lib/sites/site-store.ts',
  'tests/unit/notification-body.test.ts',
  'tests/unit/payment-flows.test.ts',
  'tests/unit/payment-methods.test.ts',
  'tests/unit/site-clock-rules.test.ts',
]

// lib/'s domain: what the API and the pages are about, and the composition that wires it into HTTP
// (lib/api/). lib/http/ (the API's wrapper, the front door, errors, JSON) is given what it needs from them.
const DOMAIN =
  '^lib/(acquirer|api|billing|bills|dashboard|notifications|observability|openapi|pay-form|payments|sandbox|scheduler|settlement|sites)/'
// the resources, and what joins them: each renders its own notification bodies for the transport
const RESOURCES = '^lib/(acquirer|api|billing|bills|dashboard|pay-form|payments|settlement)/'

module.exports = {
  forbidden: [
    {
      name: 'no-circular-in-lib',
      comment: 'lib/ has no import cycle (none today): a cycle makes module order and initialisation fragile',
      severity: 'error',
      from: { path: '^lib/' },
      to: { circular: true },
    },
    {
      name: 'lib-not-to-app',
      comment: 'lib/ is the service; the routes, pages, components and scripts use it, never the reverse',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(app|components|pages|scripts)/' },
    },
    {
      name: 'prisma-client-importers',
      comment:
        'only lib/db/ and the modules listed in PRISMA_CLIENT_IMPORTERS (.dependency-cruiser.cjs) import the Prisma client',
      severity: 'error',
      from: { pathNot: ['^lib/db/', '^lib/generated/', ...PRISMA_CLIENT_IMPORTERS.map(exactly)] },
      to: { path: ['^lib/generated/prisma/', '^node_modules/@prisma/client/'] },
    },
    {
      name: 'db-not-to-http',
      comment: 'the database layer knows nothing of HTTP (both log with lib/log/)',
      severity: 'error',
      from: { path: '^lib/db/' },
      to: { path: '^lib/http/' },
    },
    {
      name: 'http-knows-no-domain',
      comment:
        'lib/http/ knows no domain module: what admits a request (site tokens and clocks, dashboard sessions) is ' +
        'given to its wrapper by lib/api/api-route.ts',
      severity: 'error',
      from: { path: '^lib/http/' },
      to: { path: DOMAIN },
    },
    {
      name: 'notifications-are-transport',
      comment:
        'lib/notifications/ is transport (outbox, delivery, signing, policy): it imports no resource module, ' +
        'and each resource renders its own notification body',
      severity: 'error',
      from: { path: '^lib/notifications/' },
      to: { path: RESOURCES },
    },
    {
      name: 'bills-not-to-payments',
      comment: 'bills and payments do not import each other (bills → payments): they meet in lib/settlement/',
      severity: 'error',
      from: { path: '^lib/bills/' },
      to: { path: '^lib/payments/' },
    },
    {
      name: 'payments-not-to-bills',
      comment: 'bills and payments do not import each other (payments → bills): they meet in lib/settlement/',
      severity: 'error',
      from: { path: '^lib/payments/' },
      to: { path: '^lib/bills/' },
    },
    {
      name: 'settlement-below-bills-and-payments',
      comment: 'lib/settlement/ (the bill a payment is on) sits below bills and payments: it imports neither',
      severity: 'error',
      from: { path: '^lib/settlement/' },
      to: { path: '^lib/(api|billing|bills|dashboard|pay-form|payments)/' },
    },
    {
      name: 'billing-above-bills-and-payments',
      comment: 'lib/billing/ (a bill with its payments) sits above bills and payments: none of them imports it',
      severity: 'error',
      from: { path: '^lib/(bills|payments|settlement)/' },
      to: { path: '^lib/billing/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import that resolves to nothing (a rule above cannot see where it goes)',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // generated code and packages are endpoints, not followed
    doNotFollow: { path: ['node_modules', '^lib/generated/'] },
    exclude: {
      path: [
        '^node_modules/',
        '^\\.git/',
        '^\\.next',
        '^data/',
        '^test-results/',
        '^playwright-report/',
        '^next-env\\.d\\.ts$',
        // build output and test data, which ESLint and Prettier skip too
        '^public/_pay/',
        '^tests/fixtures/',
        '^app/dev-reload-probe/',
      ],
    },
    // type-only imports count: a module importing the Prisma client's types depends on it all the same
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
}
