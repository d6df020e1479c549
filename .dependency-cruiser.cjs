// The dependency rules `npm run lint` enforces (dependency-cruiser): rules that hold today and must keep
// holding. Where one does not hold yet, the known exceptions are listed by name and only warn, so that a
// new one fails. The target layering of issue 27 is reported, without failing, by `npm run deps:target`
// (scripts/lint.ts --target).

/** an exact module path as a regular expression */
const exactly = (file) => `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`

// The modules outside lib/db/ that import the Prisma client (its generated module) today, frozen: the
// database is reached through them, and a new importer has to say why here.
const PRISMA_CLIENT_IMPORTERS = [
  'lib/billing/bill-details-wire.ts',
  'lib/billing/bill-service.ts',
  'lib/bills/bill-wire.ts',
  'lib/dashboard/dashboard-bills.ts',
  'lib/dashboard/dashboard-cursor.ts',
  'lib/dashboard/dashboard-notifications.ts',
  'lib/dashboard/dashboard-payments.ts',
  'lib/dashboard/dashboard-session.ts',
  'lib/http/api-route.ts',
  'lib/notifications/delivery.ts',
  'lib/notifications/notification-resend.ts',
  'lib/notifications/outbox.ts',
  'lib/observability/database-metrics.ts',
  'lib/pay-form/form-service.ts',
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
  'lib/sandbox/site-clock.ts',
  'lib/settlement/bill-for-payment.ts',
  'lib/scheduler/time-driven-changes.ts',
  'lib/sites/site-tokens.ts',
  'tests/unit/notification-body.test.ts',
  'tests/unit/payment-flows.test.ts',
  'tests/unit/payment-methods.test.ts',
  'tests/unit/site-clock-rules.test.ts',
]

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
      comment: 'the database layer knows nothing of HTTP',
      severity: 'error',
      from: { path: '^lib/db/', pathNot: exactly('lib/db/client.ts') },
      to: { path: '^lib/http/' },
    },
    {
      name: 'db-not-to-http',
      comment: 'the database layer knows nothing of HTTP (lib/db/client.ts: but for the known exception below)',
      severity: 'error',
      from: { path: exactly('lib/db/client.ts') },
      to: { path: '^lib/http/', pathNot: exactly('lib/http/request-log.ts') },
    },
    {
      name: 'db-not-to-http-known',
      comment: "known today: the database client writes its log lines with lib/http/request-log.ts's writer",
      severity: 'warn',
      from: { path: exactly('lib/db/client.ts') },
      to: { path: exactly('lib/http/request-log.ts') },
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
