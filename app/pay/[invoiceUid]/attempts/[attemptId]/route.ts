import { attemptRoute } from '@/lib/pay-form/form-endpoints'

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = attemptRoute
