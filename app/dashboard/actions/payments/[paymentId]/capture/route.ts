import { captureActionRoute } from '@/lib/dashboard/dashboard-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = captureActionRoute
