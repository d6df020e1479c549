// GET /api/openapi.json: the API's OpenAPI 3.1 document (lib/openapi/api-document.ts), no token.
import { openApiRoute } from '@/lib/openapi/api-document'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = openApiRoute
