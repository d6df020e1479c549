import { billRoute } from '@/lib/billing/bill-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = billRoute
