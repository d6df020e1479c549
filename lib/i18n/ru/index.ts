// Every Russian dictionary, one per feature, typed against the English ones (lib/i18n/en/).
import type { Texts } from '../en'
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

export const ru: Texts = {
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
