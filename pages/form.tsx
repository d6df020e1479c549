// Production's payUrl shapes, `/form?invoiceUid=…` and `/form/?invoice_uid=…`: the bill's payment page (/pay/{uid}),
// the payUrl's options kept (lib/pay-form/page-options.ts). Anything else: not found.
import type { GetServerSideProps } from 'next'
import { pageOptions, pageQuery } from '@/lib/pay-form/page-options'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const getServerSideProps: GetServerSideProps = async ({ query }) => {
  const uid = query.invoiceUid ?? query.invoice_uid
  if (typeof uid !== 'string' || !UUID.test(uid)) return { notFound: true }
  const options = pageQuery(pageOptions(query))
  return { redirect: { destination: `/pay/${uid.toLowerCase()}${options}`, permanent: false } }
}

export default function ProductionPayUrl() {
  return null
}
