// Every relative link of README.md and of the pages under docs/ leads somewhere: the file exists, and an
// anchor (#…) names a heading of the page it points into, as GitHub makes a heading's anchor.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { docFiles, readmeText } from '../support/readme-examples.ts'

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces as hyphens; repeats get -1, -2 … */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const line of proseLines(markdown)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!m) continue
    const slug = m[1]
      .toLowerCase()
      .replace(/<[^>]*>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    anchors.add(n ? `${slug}-${n}` : slug)
  }
  return anchors
}

/** the page's lines outside fenced code blocks */
function proseLines(markdown: string): string[] {
  let fenced = false
  return markdown.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced
      return false
    }
    return !fenced
  })
}

/** the targets of the page's links and images, inline code left out */
function linkTargets(markdown: string): string[] {
  return proseLines(markdown).flatMap((line) =>
    [...line.replace(/`[^`]*`/g, '').matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]),
  )
}

test('a heading anchor is made as GitHub makes it', () => {
  const anchors = headingAnchors(
    [
      '# Payin sandbox',
      '### 3-D Secure (card `4000000000003220`)',
      "### The embedded database's password",
      '## Logs',
      '## Logs',
    ].join('\n'),
  )
  assert.deepEqual(
    [...anchors],
    ['payin-sandbox', '3-d-secure-card-4000000000003220', 'the-embedded-databases-password', 'logs', 'logs-1'],
  )
  assert.deepEqual(linkTargets('see [a](b.md#c) and ![d](e.png) but not `[f](g)`'), ['b.md#c', 'e.png'])
})

test('every relative link of README.md and docs/ resolves, anchors included', () => {
  const problems: string[] = []
  let count = 0
  for (const file of docFiles()) {
    for (const target of linkTargets(readmeText(file))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // http:, https:, mailto:
      count++
      const [where, anchor] = target.split('#', 2)
      const resolved = where ? path.normalize(path.join(path.dirname(file), decodeURIComponent(where))) : file
      if (!fs.existsSync(resolved)) {
        problems.push(`${file}: ${target}: no ${resolved}`)
        continue
      }
      if (anchor === undefined) continue
      if (!resolved.endsWith('.md')) problems.push(`${file}: ${target}: an anchor into a file that is not a page`)
      else if (!headingAnchors(fs.readFileSync(resolved, 'utf8')).has(anchor))
        problems.push(`${file}: ${target}: ${resolved} has no heading #${anchor}`)
    }
  }
  assert.ok(count > 50, `only ${count} relative links found`)
  assert.deepEqual(problems, [])
})
