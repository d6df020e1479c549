import { clockAdvanceRoute } from '@/lib/dashboard/dashboard-clock-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = clockAdvanceRoute
