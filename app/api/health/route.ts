import { healthRoute } from '@/lib/health'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = healthRoute
