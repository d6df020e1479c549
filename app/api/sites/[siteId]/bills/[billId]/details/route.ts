import { billDetailsRoute } from '@/lib/bills/bill-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = billDetailsRoute
