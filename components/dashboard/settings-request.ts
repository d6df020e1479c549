// The settings forms' requests: POST to /dashboard/actions/settings/… (components/dashboard/dashboard-action.ts).
import { dashboardAction, type ActionAnswer } from './dashboard-action'

export type { ActionAnswer }

export const settingsAction = <T>(path: string, body?: unknown): Promise<ActionAnswer<T>> =>
  dashboardAction<T>(`settings/${path}`, body)
