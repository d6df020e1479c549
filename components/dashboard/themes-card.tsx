'use client'
// The site's payment page themes (issue 31, lib/themes): the list, each changeable and deletable, and a form that
// adds a theme or changes the one being edited. The service decides (POST /dashboard/actions/settings/themes): its
// refusal, a 400 naming a field (code, name, a colour, logo), is shown on that field in the service's words. A logo
// is read in the browser and sent as base64; leaving the file empty keeps a changed theme's logo.
import { useRouter } from 'next/navigation'
import { useState, type FormEvent } from 'react'
import type { SettingsMessages } from '@/lib/i18n/en/settings'
import type { ThemesMessages } from '@/lib/i18n/en/themes'
import type { ThemeRow } from '@/lib/dashboard/dashboard-themes'
import { fill } from '@/lib/i18n/fill'
import { SaveFooter } from './save-footer'
import { settingsAction } from './settings-request'

type Fields = { code: string; name: string; backgroundColor: string; buttonColor: string; buttonTextColor: string }
const EMPTY: Fields = {
  code: '',
  name: '',
  backgroundColor: '#ffffff',
  buttonColor: '#1d4ed8',
  buttonTextColor: '#ffffff',
}
const FIELDS = ['code', 'name', 'backgroundColor', 'buttonColor', 'buttonTextColor', 'logo'] as const

/** the file's bytes in base64 (FileReader's data: URL without its head) */
const base64Of = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''))
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(file)
  })

export function ThemesCard({ themes, t, s }: { themes: ThemeRow[]; t: ThemesMessages; s: SettingsMessages }) {
  const router = useRouter()
  const [fields, setFields] = useState<Fields>(EMPTY)
  const [editing, setEditing] = useState<ThemeRow | null>(null)
  const [file, setFile] = useState<File | null>(null)
  const [removeLogo, setRemoveLogo] = useState(false)
  const [formKey, setFormKey] = useState(0)
  const [submitting, setSubmitting] = useState(false)
  const [saved, setSaved] = useState(false)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [problem, setProblem] = useState<string | null>(null)
  const [said, setSaid] = useState<string | null>(null)

  const reset = (theme: ThemeRow | null) => {
    setEditing(theme)
    setFields(
      theme
        ? {
            code: theme.code,
            name: theme.name,
            backgroundColor: theme.backgroundColor,
            buttonColor: theme.buttonColor,
            buttonTextColor: theme.buttonTextColor,
          }
        : EMPTY,
    )
    setFile(null)
    setRemoveLogo(false)
    setErrors({})
    setProblem(null)
    setSaved(false)
    setFormKey((k) => k + 1)
  }

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault()
    setSaved(false)
    setErrors({})
    setProblem(null)
    setSaid(null)
    setSubmitting(true)
    let logo: { type: string; data: string } | null | undefined = removeLogo ? null : undefined
    if (file) {
      try {
        logo = { type: file.type === 'image/svg+xml' ? 'image/svg+xml' : 'image/png', data: await base64Of(file) }
      } catch {
        setSubmitting(false)
        setErrors({ logo: t.unreadable })
        return
      }
    }
    const r = await settingsAction<ThemeRow>('themes', { ...fields, ...(logo === undefined ? {} : { logo }) })
    setSubmitting(false)
    if (r.ok) {
      reset(null)
      setSaved(true)
      router.refresh()
      return
    }
    const field = FIELDS.find((f) => r.body.cause?.[f]?.[0])
    if (r.status === 400 && field) setErrors({ [field]: r.body.cause![field]![0] })
    else setProblem(fill(s.failed, { description: r.body.description ?? `HTTP ${r.status}` }))
  }

  const onDelete = async (code: string) => {
    setSaid(null)
    setProblem(null)
    const r = await settingsAction<{ deleted: string }>(`themes/${encodeURIComponent(code)}/delete`)
    if (r.ok) {
      if (editing?.code === code) reset(null)
      setSaid(fill(t.deleted, { code }))
      router.refresh()
    } else setProblem(fill(s.failed, { description: r.body.description ?? `HTTP ${r.status}` }))
  }

  const input = (name: keyof Fields, label: string, help?: string) => {
    const id = `theme-${name}`
    const describedBy = [help ? `${id}-help` : '', errors[name] ? `${id}-error` : ''].filter(Boolean).join(' ')
    return (
      <div className="set-theme-field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          name={name}
          value={fields[name]}
          spellCheck={false}
          autoComplete="off"
          readOnly={name === 'code' && !!editing}
          aria-invalid={!!errors[name]}
          aria-describedby={describedBy || undefined}
          onChange={(e) => {
            setFields({ ...fields, [name]: e.target.value })
            setSaved(false)
          }}
        />
        {help && (
          <p id={`${id}-help`} className="set-note">
            {help}
          </p>
        )}
        {errors[name] && (
          <p id={`${id}-error`} className="dash-error">
            {fill(t.refused, { reason: errors[name] })}
          </p>
        )}
      </div>
    )
  }

  return (
    <>
      {themes.length === 0 ? (
        <p>{t.none}</p>
      ) : (
        <ul className="set-themes">
          {themes.map((theme) => (
            <li key={theme.code} data-theme={theme.code}>
              <span className="set-theme-swatch" style={{ background: theme.backgroundColor }}>
                <span style={{ background: theme.buttonColor, color: theme.buttonTextColor }}>Aa</span>
              </span>
              {theme.logo ? (
                // eslint-disable-next-line @next/next/no-img-element -- the theme's own logo, same origin
                <img src={theme.logo.src} alt={fill(t.currentLogo, { code: theme.code })} height={32} />
              ) : (
                <span className="set-note">{t.noLogo}</span>
              )}
              <span className="set-theme-what">
                <code>{theme.code}</code> {theme.name}
              </span>
              <span className="set-theme-acts">
                <button type="button" onClick={() => reset(theme)}>
                  {t.edit}
                </button>
                <button type="button" onClick={() => onDelete(theme.code)}>
                  {t.delete}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {said && (
        <p role="status" className="dash-ok">
          {said}
        </p>
      )}
      <form key={formKey} className="set-theme-form" noValidate onSubmit={onSubmit} aria-busy={submitting}>
        <h3>{editing ? fill(t.editing, { code: editing.code }) : t.add}</h3>
        {input('code', t.code, t.codeHelp)}
        {input('name', t.name)}
        {input('backgroundColor', t.backgroundColor, t.colorHelp)}
        {input('buttonColor', t.buttonColor)}
        {input('buttonTextColor', t.buttonTextColor)}
        <div className="set-theme-field">
          <label htmlFor="theme-logo">{t.logo}</label>
          <input
            id="theme-logo"
            type="file"
            accept="image/png,image/svg+xml"
            aria-invalid={!!errors.logo}
            aria-describedby={errors.logo ? 'theme-logo-error' : undefined}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
          {editing?.logo && (
            <>
              <p className="set-note">{t.logoKept}</p>
              <label className="set-check">
                <input type="checkbox" checked={removeLogo} onChange={(e) => setRemoveLogo(e.target.checked)} />
                {t.removeLogo}
              </label>
            </>
          )}
          {errors.logo && (
            <p id="theme-logo-error" className="dash-error">
              {fill(t.refused, { reason: errors.logo })}
            </p>
          )}
        </div>
        <SaveFooter t={s} submitting={submitting} saved={saved} problem={problem} />
        {editing && (
          <p>
            <button type="button" onClick={() => reset(null)}>
              {t.cancel}
            </button>
          </p>
        )}
      </form>
    </>
  )
}
