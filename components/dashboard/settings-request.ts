// The settings forms' requests: POST to /dashboard/actions/settings/… (components/dashboard/dashboard-action.ts).
import { dashboardAction, type ActionAnswer } from './dashboard-action'

export type { ActionAnswer }

export const settingsAction = <T>(path: string, body?: unknown): Promise<ActionAnswer<T>> =>
  dashboardAction<T>(`settings/${path}`, body)

/** an instant of an answer, as the browser's reader would write it */
export const localTime = (iso: string, lang: 'en' | 'ru') =>
  new Intl.DateTimeFormat(lang === 'ru' ? 'ru-RU' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  )
