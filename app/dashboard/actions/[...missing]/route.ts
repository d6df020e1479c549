// Any other address under /dashboard/actions: the 404 in the error shape, as an unknown API path answers (without
// it, the dashboard's own "not found" page would answer here, framed, outside the proxy's security headers).
import { unknownRoutes } from '@/lib/http/api-route'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = unknownRoutes
