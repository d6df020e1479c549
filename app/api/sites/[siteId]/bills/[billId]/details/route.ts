import { billDetailsRoute } from '@/lib/billing/bill-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = billDetailsRoute
