import { metricsRoute } from '@/lib/observability/observability-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = metricsRoute
