// The payment page's browser script: React takes over the form the server rendered, with the data it
// was rendered with. Bundled on its own by scripts/pay-form-bundle.ts (React, react-hook-form, zod/mini
// and the form: about 95 KB gzipped), not by Next.js, whose app-router runtime alone is 135 KB gzipped.
import { hydrateRoot } from 'react-dom/client'
import type { PaymentFormData } from '@/lib/pay-form/pay-page'
import { PAY_FORM_DATA, PAY_FORM_ROOT, PaymentForm } from './payment-form'

const root = document.getElementById(PAY_FORM_ROOT)
const data = document.getElementById(PAY_FORM_DATA)?.textContent
if (root && data) hydrateRoot(root, <PaymentForm {...(JSON.parse(data) as PaymentFormData)} />)
