import { refundActionRoute } from '@/lib/dashboard/dashboard-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = refundActionRoute
