export const SIMPLE_ICONS: Record<string, string>
export function renderLogos(icons: Record<string, { path: string } | unknown>): string
