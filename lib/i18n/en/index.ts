// Every English dictionary, one per feature: the shape every other language's folder is typed against. A new
// language starts as a copy of this folder, translated (its index annotated with `Texts`).
import { audit } from './audit'
import { bills } from './bills'
import { dashboard } from './dashboard'
import { duration } from './duration'
import { codes } from './codes'
import { formLink } from './form-link'
import { notifications } from './notifications'
import { overview } from './overview'
import { payForm } from './pay-form'
import { sbpBankApp } from './sbp-bank-app'
import { settings } from './settings'
import { themes } from './themes'

export const en = {
  payForm,
  dashboard,
  bills,
  notifications,
  overview,
  settings,
  audit,
  duration,
  sbpBankApp,
  formLink,
  themes,
  codes,
}

export type Texts = typeof en
