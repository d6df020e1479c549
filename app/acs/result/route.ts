import { challengeResult } from '@/lib/acquirer/acs-pages'

export const POST = challengeResult
