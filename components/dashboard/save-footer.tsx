// The end of a settings form: its Save button (busy while sending), then what came of the last save.
import type { SettingsMessages } from '@/lib/i18n/en/settings'

export function SaveFooter({
  t,
  submitting,
  saved,
  problem,
}: {
  t: SettingsMessages
  submitting: boolean
  saved: boolean
  /** why the last save failed, in the reader's words; null when it did not */
  problem: string | null
}) {
  return (
    <>
      <div className="dash-inline">
        <button type="submit" disabled={submitting}>
          {submitting ? t.saving : t.save}
        </button>
      </div>
      {saved && (
        <p role="status" className="dash-ok">
          {t.saved}
        </p>
      )}
      {problem && (
        <p role="alert" className="dash-error">
          {problem}
        </p>
      )}
    </>
  )
}
