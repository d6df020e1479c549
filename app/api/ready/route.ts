import { readinessRoute } from '@/lib/observability/observability-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readinessRoute
