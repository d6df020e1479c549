// Any other path under /api: the contract's 404.
import { unknownRoutes } from '@/lib/http/api-route'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = unknownRoutes
