// /docs: the API reference, rendered on the server from the OpenAPI document (no script, no CDN).
import { ApiReference } from '@/components/docs/api-reference'
import { docsCss } from '@/components/docs/docs-styles'
import { settings } from '@/lib/config'
import { apiDocument } from '@/lib/openapi/api-document'

export const metadata = { title: 'API reference · Payin sandbox' }

export default function DocsPage() {
  return (
    <>
      <style>{docsCss}</style>
      <ApiReference document={apiDocument()} origin={settings().publicBaseUrl} />
    </>
  )
}
