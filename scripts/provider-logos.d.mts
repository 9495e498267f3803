export const SIMPLE_ICONS: Record<string, string>
export function renderLogo(id: string, icons: Record<string, unknown>): string
