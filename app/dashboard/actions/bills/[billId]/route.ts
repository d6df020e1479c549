import { newBillRoute } from '@/lib/dashboard/dashboard-bill-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = newBillRoute
