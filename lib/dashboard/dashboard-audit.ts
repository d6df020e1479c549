// The dashboard's audit log: who (the session's token hint) did what to which subject, how it ended and
// when. Payment actions are shown on the payment's page; settings actions on the settings page.
export { recordAudit, type AuditRecord } from './audit-store'

/**
 * A URL as the audit log may keep it: any user name or password taken out (`https://…@shop.example/`),
 * parsed as browsers parse it (a password may hold an `@`); what does not parse as a URL is not kept.
 */
export function auditableUrl(input: string): string {
  try {
    const url = new URL(input.trim())
    if (!url.host) return '(not a URL)'
    const hadCredentials = url.username !== '' || url.password !== ''
    url.username = ''
    url.password = ''
    const shown = url.toString()
    return (hadCredentials ? shown.replace('://', '://…@') : shown).slice(0, 300)
  } catch {
    return '(not a URL)'
  }
}
