'use client'
// The dashboard's sign-in form: site ID and API token, checked by the service (POST /dashboard/actions/sign-in),
// which sets the session cookie. One message for any wrong pair.
import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { z } from './form-schema'
import type { DashboardMessages } from '@/lib/i18n/en/dashboard'

const schema = z.object({ siteId: z.string().trim().min(1), token: z.string().trim().min(1) })
type Values = z.infer<typeof schema>

export function SignInForm({ t, ended }: { t: DashboardMessages; ended: boolean }) {
  const { register, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { siteId: '', token: '' },
  })
  const [problem, setProblem] = useState<string | null>(ended ? t.sessionEnded : null)
  const onSubmit = async (values: Values) => {
    setProblem(null)
    const res = await fetch('/dashboard/actions/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(values),
    }).catch(() => null)
    if (res?.ok) {
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- full load: new session
      window.location.assign('/dashboard')
      return
    }
    setProblem(res?.status === 429 ? t.tooManyAttempts : t.wrongCredentials)
  }
  const { errors, isSubmitting } = formState
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="dash-form" aria-busy={isSubmitting}>
      <label htmlFor="site-id">{t.siteId}</label>
      <input
        id="site-id"
        autoComplete="username"
        aria-invalid={!!errors.siteId}
        aria-describedby={errors.siteId ? 'site-id-error' : undefined}
        {...register('siteId')}
      />
      {errors.siteId && (
        <p id="site-id-error" className="dash-error">
          {t.required}
        </p>
      )}
      <label htmlFor="api-token">{t.apiToken}</label>
      <input
        id="api-token"
        type="password"
        autoComplete="current-password"
        aria-invalid={!!errors.token}
        aria-describedby={errors.token ? 'api-token-error' : undefined}
        {...register('token')}
      />
      {errors.token && (
        <p id="api-token-error" className="dash-error">
          {t.required}
        </p>
      )}
      <p role="alert" className="dash-error">
        {problem}
      </p>
      <button type="submit" disabled={isSubmitting}>
        {isSubmitting ? t.signingIn : t.signIn}
      </button>
    </form>
  )
}
