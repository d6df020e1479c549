// The target layering of issue 27 (point 3), as dependency rules: `npm run deps:target` lists where the tree
// does not follow it yet. A report, not a check: nothing fails on it. A rule that holds everywhere moves to
// .dependency-cruiser.cjs (enforced by `npm run lint`) so that it keeps holding.
const { options } = require('./.dependency-cruiser.cjs')

const DOMAIN_OF_HTTP = '^lib/(dashboard|sites|sandbox|observability)/'
const RESOURCES = '^lib/(payments|bills|acquirer|pay-form|dashboard)/'

module.exports = {
  forbidden: [
    {
      name: 'http-knows-no-domain',
      comment: 'lib/http/ knows no domain module: no dashboard, sites, sandbox or observability imports',
      severity: 'warn',
      from: { path: '^lib/http/' },
      to: { path: DOMAIN_OF_HTTP },
    },
    {
      name: 'db-not-to-http',
      comment: 'lib/db/ does not import lib/http/',
      severity: 'warn',
      from: { path: '^lib/db/' },
      to: { path: '^lib/http/' },
    },
    {
      name: 'notifications-are-transport',
      comment:
        'lib/notifications/ is transport (outbox, delivery, signing, policy): it imports no resource module, ' +
        'and each resource renders its own notification body',
      severity: 'warn',
      from: { path: '^lib/notifications/' },
      to: { path: RESOURCES },
    },
    {
      name: 'bills-not-to-payments',
      comment: 'bills and payments do not import each other (bills → payments)',
      severity: 'warn',
      from: { path: '^lib/bills/' },
      to: { path: '^lib/payments/' },
    },
    {
      name: 'payments-not-to-bills',
      comment: 'bills and payments do not import each other (payments → bills)',
      severity: 'warn',
      from: { path: '^lib/payments/' },
      to: { path: '^lib/bills/' },
    },
  ],
  options,
}
