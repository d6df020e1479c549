// The registries' modules in their declared order. A registry's list of modules is written from its folder
// (scripts/registries.mjs, in file-name order), so each module says where it goes: its `position`.

/** the modules by ascending `position`; two at one position would list in no defined order, so they are refused */
export function inPositionOrder<M extends { position: number }>(what: string, modules: readonly M[]): M[] {
  const ordered = [...modules].sort((a, b) => a.position - b.position)
  ordered.forEach((m, i) => {
    if (i > 0 && ordered[i - 1].position === m.position) throw new Error(`${what}: two at position ${m.position}`)
  })
  return ordered
}
