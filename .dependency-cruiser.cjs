// The dependency rules `npm run lint` enforces (dependency-cruiser), every one an error: no cycle in lib/,
// lib/ below the app, the database reached only by the stores, and the layering of issue 27 —
// dependencies run one way: lib/http/ and lib/db/ know no module above them, lib/notifications/ is
// transport, bills and payments meet below both (lib/settlement/) and above both (lib/billing/).

// Each module owns its tables (issue 27): the database — its client (lib/db/client.ts) and Prisma's generated
// module, types included — is reached by the stores (`*-store.ts`, one per aggregate, in the module that owns
// the table) and by the infrastructure below them: lib/db/ itself, the site-write primitive (a site's
// transaction, gate and clock), the health check, readiness and the database metrics (which count rows of the
// domain's tables and their backlogs' ages for Prometheus: read-only, across every table). Tests, scripts and the
// bench reach it freely (they set up and check what the service wrote). Stores hand their callers the transaction
// (`Tx`) to pass back in; that no other module runs a statement on it is checked by tests/unit/store-rules.test.ts.
const REACH_THE_DATABASE = [
  '^lib/[a-z-]+/[a-z-]+-store\\.ts$',
  '^lib/db/',
  '^lib/generated/',
  '^lib/sandbox/site-write\\.ts$',
  '^lib/health\\.ts$',
  '^lib/observability/(database-metrics|readiness)\\.ts$',
  '^(tests|scripts|bench|e2e)/',
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
      name: 'only-stores-reach-the-database',
      comment:
        'only the stores (*-store.ts) and the infrastructure below them (REACH_THE_DATABASE in ' +
        '.dependency-cruiser.cjs) import the database client or the Prisma client, its types included',
      severity: 'error',
      from: { pathNot: REACH_THE_DATABASE },
      to: { path: ['^lib/db/client\\.ts$', '^lib/generated/prisma/', '^node_modules/@prisma/client/'] },
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
