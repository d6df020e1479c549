// A value built once per key for the life of the process (formatters and the like, costly to build and
// cheap to use). Only for keys from a small fixed set: nothing is ever evicted.
export function memoized<V>(build: (key: string) => V): (key: string) => V {
  const built = new Map<string, V>()
  return (key) => {
    let value = built.get(key)
    if (value === undefined) built.set(key, (value = build(key)))
    return value
  }
}
