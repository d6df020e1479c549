// How a card number may stand in any output the tests read (a server's log, its console): its digits
// plain, percent-encoded (%34) or full-width (４, %EF%BC%94), with up to three separators between any two
// (a space, `-`, `,`, `:`, a percent-encoding, a backslash escape such as `\t` …), as the masking
// (lib/log/log-line.ts) reads them — and one more, so a form it only nearly misses is caught too.

/** a pattern matching `pan` written in any of those forms */
export function writtenForms(pan: string): RegExp {
  return new RegExp(
    pan
      .split('')
      .map((d) => `(?:${d}|%3${d}|%[eE][fF]%[bB][cC]%9${d}|${String.fromCharCode(0xff10 + Number(d))})`)
      .join('(?:\\\\+(?:[bfnrtv]|u[0-9a-fA-F]{4})|[^0-9A-Za-z\\uff10-\\uff19]|%[0-9A-Fa-f]{2}){0,4}'),
  )
}
