// The payer's part of a 3-D Secure challenge, played at the service's emulated access-control page.
import assert from 'node:assert/strict'

/** plays the payer's browser at the emulated ACS: returns the PaRes posted to TermUrl */
export async function passChallenge(
  pareq: string,
  acsUrl: string,
  result: 'pass' | 'fail',
  md = 'merchant-data',
): Promise<{ pares: string; md: string }> {
  const challenge = await fetch(acsUrl, {
    method: 'POST',
    body: new URLSearchParams({ PaReq: pareq, MD: md, TermUrl: 'https://merchant.example/3ds-return' }),
  })
  assert.equal(challenge.status, 200)
  const html = await challenge.text()
  assert.match(html, /Pass authentication/)
  const action = new URL(/action="([^"]+)"/.exec(html)![1], acsUrl).href
  const back = await fetch(action, {
    method: 'POST',
    body: new URLSearchParams({ PaReq: pareq, MD: md, TermUrl: 'https://merchant.example/3ds-return', result }),
  })
  assert.equal(back.status, 200)
  const page = await back.text()
  assert.match(page, /action="https:\/\/merchant.example\/3ds-return"/)
  const value = (name: string) =>
    new RegExp(`name="${name}" value="([^"]*)"`)
      .exec(page)![1]
      .replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)))
  return { pares: value('PaRes'), md: value('MD') }
}
