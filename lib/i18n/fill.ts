// A text's placeholders (`{amount}`, `{by}`) filled with values; a placeholder without a value is left empty.
export const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '')
