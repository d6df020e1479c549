// The payment page's browser script: React takes over the form the server rendered, with the data it
// was rendered with. Bundled on its own by scripts/pay-form-bundle.ts (React, react-hook-form, zod/mini
// and the form: about 92 KB gzipped), not by Next.js, whose app-router runtime alone is 135 KB gzipped.
// The page runs it at the payer's first move on the form (pages/pay/[invoiceUid].tsx); hydration runs
// as a transition, after the task that evaluated this module: React then works in slices of a few
// milliseconds, so a slow phone's main thread is never blocked long while the payer types.
import { startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { config } from 'zod/mini'
import type { PaymentFormData } from '@/lib/pay-form/pay-page'
import { PAY_FORM_DATA, PAY_FORM_ROOT, PaymentForm } from './payment-form'

// zod would probe whether it may compile code (new Function), which the page's Content-Security-Policy
// refuses and reports as an error: it is told not to
config({ jitless: true })

const root = document.getElementById(PAY_FORM_ROOT)
const data = document.getElementById(PAY_FORM_DATA)?.textContent
if (root && data) {
  const props = JSON.parse(data) as PaymentFormData
  // the method the payer chose, as the page's HTML has it now and as the payer changes it until the form
  // is mounted (hydration takes a moment): the form applies it once mounted (react-hook-form's
  // registration of the radios resets them, without a change event)
  const note = (radio: HTMLInputElement | null | undefined) => {
    if (radio?.name === 'method' && radio.checked) root.dataset.method = radio.value
  }
  note(root.querySelector<HTMLInputElement>('input[name="method"]:checked'))
  root.addEventListener('change', (e) => note(e.target as HTMLInputElement))
  setTimeout(() => startTransition(() => void hydrateRoot(root, <PaymentForm {...props} />)), 0)
}
