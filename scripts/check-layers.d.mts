/** One floor of the layering table: places (folders ending in "/", or files) relative to src/. */
export interface Floor {
  floor: number
  places: string[]
}

/** One broken rule; `key` is the line docs/layers-baseline.json holds for it. */
export interface Violation {
  rule: "unplaced" | "unresolved" | "upward" | "sibling" | "cycle"
  key: string
  from: string
  to?: string
  typeOnly?: boolean
  pair?: string
  floors?: [number, number]
  members?: string[]
  path?: string[]
}

export interface LayersResult {
  files: number
  imports: number
  edges: number
  typeOnlyEdges: number
  violations: Violation[]
  /** Violations the baseline does not excuse. */
  fresh: Violation[]
  /** Baseline keys that no longer occur. */
  stale: string[]
  baseline: number
  ok: boolean
}

export const FLOORS: Floor[]
export function placeOf(file: string, floors?: Floor[]): { place: string; floor: number } | undefined
export function importsOf(text: string, fileName?: string): { specifier: string; typeOnly: boolean }[]
export function checkLayers(options: { root: string; baseline?: string[]; floors?: Floor[] }): LayersResult
export function baselineOf(result: LayersResult): string[]
export function readBaseline(path: string): string[]
export function writeBaseline(path: string, keys: string[]): void
export function folderMap(violations: Violation[]): { pair: string; rule: string; edges: number; typeOnly: number }[]
