// GET /pay-theme/{siteId}/{themeCode}/logo: a payment page theme's logo (lib/themes/theme-logo-endpoint.ts).
export { GET } from '@/lib/themes/theme-logo-endpoint'

export const dynamic = 'force-dynamic'
