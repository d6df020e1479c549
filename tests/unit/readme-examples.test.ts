// How the examples check reads README.md and docs/ (tests/support/readme-examples.ts): commands over several
// lines, comments, the answers they name, blocks marked not to run, and the printed answers compared loosely
// where a page abbreviates.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  differences,
  docFiles,
  readmeCommands,
  readmeText,
  SKIP_MARKER,
  splitCommands,
  withService,
} from '../support/readme-examples.ts'

test('a command goes on over a trailing backslash and a newline inside quotes; # starts a comment', () => {
  const cmds = splitCommands(
    [
      `curl -s -X PUT "$BASE/x" \\`,
      `  -d '{"a":1,`,
      `       "b":"it's # not a comment"}'   # a comment with the payer's "quotes"`,
      '# 400 {"errorCode":"validation.error"}',
      'X=$(curl -s "$BASE/y" | grep -o \'"id":"[^"]*"\' | cut -d\'"\' -f4)',
      '# status DECLINED, reason REATTEMPT_NOT_PERMITTED: within 30 days',
      'curl -s "$BASE/z"',
      '# {"paymentId":"p",…,"status":{"value":"WAITING",…}}',
      'echo done # status COMPLETED (a failed check: DECLINED, reason DECLINED_BY_MPI)',
      '# status COMPLETED (a failed check: DECLINED, reason DECLINED_BY_MPI)',
      'curl -s "$BASE/w"',
      '# 100 ms or so, then 409 payin.request.conflict',
      'curl -s "$BASE/v"',
      '# 409 payin.request.conflict: the same id, another request',
    ],
    10,
  )
  // (the quote in "it's" closes the single-quoted string: the shell reads it the same way)
  assert.equal(cmds.length, 6)
  assert.equal(cmds[0].line, 10)
  assert.equal(cmds[0].httpStatus, 400)
  assert.equal(cmds[0].text.split('\n').length, 3)
  assert.equal(cmds[1].statusValue, 'DECLINED')
  assert.equal(cmds[1].statusReason, 'REATTEMPT_NOT_PERMITTED')
  assert.equal(cmds[2].statusValue, 'WAITING')
  assert.equal(cmds[3].text, 'echo done')
  assert.equal(cmds[3].statusValue, 'COMPLETED')
  assert.equal(cmds[3].statusReason, undefined)
  assert.equal(cmds[4].httpStatus, undefined, 'a number that is no status')
  assert.equal(cmds[5].httpStatus, 409)
})

test('an unclosed quote is an error, not a silently merged command', () => {
  assert.throws(() => splitCommands([`curl -d '{"a":1}`], 1), /not closed/)
})

test('a printed answer matches where the README abbreviates, and nowhere else', () => {
  const shown = {
    id: 'order-1',
    billId: '1f0c…',
    at: '2026-11-22T10:15:30.123+00:00',
    url: 'http://h/pay/0bd413ed-92c3-4208-b8af-1b436b2b3349',
    flags: ['SALE'],
  }
  const ok = {
    id: 'order-1',
    billId: '1f0c9a',
    at: '2030-01-02T03:04:05.678+00:00',
    url: 'http://h/pay/11111111-2222-4333-8444-555555555555',
    flags: ['SALE'],
  }
  assert.deepEqual(differences(ok, shown), [])
  assert.equal(differences({ ...ok, id: 'order-2' }, shown).length, 1)
  assert.equal(differences({ ...ok, billId: 'xx' }, shown).length, 1)
  assert.equal(
    differences({ ...ok, at: '2030-01-02T03:04:05+00:00' }, shown).length,
    1,
    'milliseconds printed, none answered',
  )
  assert.equal(differences({ ...ok, flags: [] }, shown).length, 1)
  assert.equal(differences({ ...ok, extra: 1 }, shown).length, 1, 'a field answered but not printed')
  const { flags: _, ...withoutFlags } = ok
  assert.equal(differences(withoutFlags, shown).length, 1, 'a field printed but not answered')
})

test('a block after the skip marker is not run, nor a command that starts the service or its suite', () => {
  const page = [
    '```sh',
    'curl -s "$BASE/a"',
    '```',
    SKIP_MARKER,
    '',
    '```sh',
    'npm run webhooks -- listen',
    '```',
    '```json',
    '{"not":"an answer of anything run"}',
    '```',
    '```sh',
    'npm start',
    'TEST_ONLY=readme npm test',
    'npm run site -- list',
    '```',
  ].join('\n')
  assert.deepEqual(
    readmeCommands(page).map((c) => [c.line, c.text, c.shown]),
    [
      [2, 'curl -s "$BASE/a"', undefined],
      [15, 'npm run site -- list', undefined],
    ],
  )
})

test("the pages' examples: enough of them, and no placeholder left to fill in", () => {
  const all = docFiles().flatMap((file) =>
    readmeCommands(
      withService(readmeText(file), { base: 'http://127.0.0.1:1', token: 'sk_test', metricsToken: 'm' }),
    ).map((c) => ({ ...c, where: `${file} line ${c.line}` })),
  )
  assert.ok(all.length >= 30, `${all.length} commands`)
  for (const c of all) {
    assert.ok(!c.text.includes('…'), `${c.where}: a placeholder (…) in a command that runs: ${c.text}`)
    assert.ok(!/\b20\d\d-\d\d-\d\d/.test(c.text), `${c.where}: a fixed date in a command rots: ${c.text}`)
  }
  assert.ok(all.filter((c) => c.shown).length >= 4, 'the printed answers are compared')
})

test('the service is named by $BASE: only the line that exports it names a host and port', () => {
  for (const file of docFiles()) {
    const commands = readmeCommands(readmeText(file))
    for (const c of commands.filter((c) => /localhost|127\.0\.0\.1|:3000\b/.test(c.text)))
      assert.match(c.text, /^export BASE=http:\/\/localhost:3000\/api\b/, `${file} line ${c.line}: ${c.text}`)
    if (commands.some((c) => c.text.includes('$BASE')))
      assert.match(commands[0]?.text ?? '', /^export BASE=/, `${file}: its first example exports BASE`)
  }
})

test('every shell example of the pages is a ```sh block the check reads (no ```bash, no trailing space, no CRLF)', () => {
  for (const file of docFiles()) {
    const text = readmeText(file)
    assert.ok(!text.includes('\r'), `${file}: CRLF line ends hide its examples from the check`)
    text.split('\n').forEach((line, i) => {
      if (/^\s*```\s*(?:sh|bash|shell|zsh|console)\b/i.test(line))
        assert.equal(line, '```sh', `${file} line ${i + 1}: write shell examples as \`\`\`sh, or the check skips them`)
    })
  }
})

test('the skip marker is used sparingly: each page lists at most two blocks the check does not run', () => {
  for (const file of docFiles()) {
    const skipped = readmeText(file).split(SKIP_MARKER).length - 1
    assert.ok(skipped <= 2, `${file}: ${skipped} blocks marked not to run`)
  }
})
