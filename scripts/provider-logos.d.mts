export const SIMPLE_ICONS: Record<string, string>
export const BRAND_MARKS: Record<string, string>
export function logoIds(): string[]
export function markLoaders(): { id: string; file: string; loader: string }[]
export function renderLogo(id: string, icons: Record<string, unknown>): string
