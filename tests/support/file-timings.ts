// A reporter for node's test runner (scripts/run-tests.ts adds it beside the spec reporter): one line per test
// file, `<seconds> <file>`, written when the file's process is done; the runner lists the slowest.
import path from 'node:path'
import type { TestEvent } from 'node:test/reporters'

export default async function* fileTimings(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  for await (const event of source) {
    if (event.type !== 'test:complete') continue
    const { name, file, nesting, details } = event.data
    // the file's own entry: named by the file's path as the runner was given it, around the tests it holds
    if (nesting === 0 && file && path.resolve(name) === path.resolve(file))
      yield `${(details.duration_ms / 1000).toFixed(1)} ${path.relative(process.cwd(), file)}\n`
  }
}
