// The dashboard's Themes card (Settings): the payment page themes a bill names in customFields.themeCode.
export const themes = {
  title: 'Payment page themes',
  help: 'A bill whose customFields.themeCode (or a link’s extras[themeCode]) names one of these shows its name, logo and colours on its payment page; any other code shows the default page. Colours must keep text readable: a contrast of at least 4.5:1 for the page’s text on the background and for the button’s text on the button.',
  none: 'No themes yet.',
  code: 'Code',
  codeHelp: 'Latin letters, digits and dashes, such as shop-01.',
  name: 'Name shown on the page',
  backgroundColor: 'Background colour',
  buttonColor: 'Button colour',
  buttonTextColor: 'Button text colour',
  colorHelp: 'In hex, such as #1d4ed8.',
  logo: 'Logo (PNG or SVG, at most 64 KiB)',
  logoKept: 'Leave empty to keep the current logo.',
  removeLogo: 'Remove the logo',
  currentLogo: 'Logo of {code}',
  noLogo: 'no logo',
  add: 'Add a theme',
  editing: 'Changing {code}',
  edit: 'Change',
  cancel: 'Cancel',
  delete: 'Delete',
  deleting: 'Deleting…',
  deleted: 'Theme {code} deleted.',
  refused: 'Not saved: {reason}.',
  unreadable: 'the file could not be read',
}

export type ThemesMessages = typeof themes
