import { sandboxResetRoute } from '@/lib/sandbox/sandbox-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = sandboxResetRoute
