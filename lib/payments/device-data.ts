// A payment's `deviceData`: what the merchant's page saw of the payer's device, as production's payment request
// takes it. The sandbox decides nothing by it (no anti-fraud is emulated): it is checked, kept with the payment and
// answered as given, so that an integration that sends it can see it arrive.
import { isIP } from 'node:net'
import { z } from 'zod'
import { parseDateTime } from '../time/wire-time'

const text = (max: number) => z.string({ error: 'must be a string' }).max(max, `must be at most ${max} characters`)

/** the request's deviceData: each field optional; a field this service does not know is left out */
export const deviceDataSchema = z
  .object(
    {
      datetime: text(64)
        .refine((s) => parseDateTime(s) !== null, 'must be an ISO 8601 date-time with an offset')
        .optional()
        .meta({ description: "the payer's local time, with its offset", examples: ['2026-09-03T14:30:00+03:00'] }),
      fingerprint: text(1024).optional().meta({ description: "the device's fingerprint, as the page computed it" }),
      ip: text(45)
        .refine((s) => isIP(s) !== 0, 'must be an IPv4 or IPv6 address')
        .optional()
        .meta({ description: "the payer's IP address", examples: ['203.0.113.7'] }),
      screenResolution: text(16)
        .regex(/^\d{1,5}x\d{1,5}$/, 'must be WIDTHxHEIGHT, e.g. 1280x1024')
        .optional()
        .meta({ examples: ['1280x1024'] }),
      timeOnPage: z
        .number({ error: 'must be an integer' })
        .int('must be an integer')
        .min(0, 'must be at least 0')
        .max(2147483647, 'must be at most 2147483647')
        .optional()
        .meta({ description: 'how long the payer was on the page before paying' }),
      userAgent: text(1024).optional().meta({ description: "the payer's browser's User-Agent" }),
    },
    { error: 'must be an object' },
  )
  .meta({
    id: 'DeviceDataRequest',
    description: "the payer's device, as the merchant's page saw it: kept with the payment and answered as given",
  })
export type DeviceData = z.output<typeof deviceDataSchema>

/** the answer's deviceData: the request's, as given */
export const deviceDataAnswerSchema = z
  .strictObject({
    datetime: z.string().optional(),
    fingerprint: z.string().optional(),
    ip: z.string().optional(),
    screenResolution: z.string().optional(),
    timeOnPage: z.number().int().optional(),
    userAgent: z.string().optional(),
  })
  .meta({ id: 'DeviceData', description: 'the deviceData the payment request gave' })
