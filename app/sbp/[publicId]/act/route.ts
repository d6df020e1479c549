import { bankAppAction } from '@/lib/sbp/bank-app'

export const POST = bankAppAction
