// Types for bench/method.mjs, for the TypeScript benchmarks (bench/oauth.ts).
export declare const README_MODE: boolean
export declare function machineLine(): string
export declare function machineWithLoad(): string
export declare function median(values: number[]): number
export declare function ratioText(values: number[], digits?: number): string
export declare function fractionText(values: number[]): string
export declare function us(value: number): string
export declare function interleave<Names extends string>(
  contenders: Record<Names, () => unknown>,
  options?: { rounds?: number; sliceMs?: number; warmupMs?: number }
): Promise<Record<Names, number[]>>
export declare function interleaveWithCpu<Names extends string>(
  contenders: Record<Names, () => unknown>,
  options?: { rounds?: number; sliceMs?: number; warmupMs?: number }
): Promise<{ wall: Record<Names, number[]>; cpu: Record<Names, number[]> }>
export declare function perRound(over: number[], under: number[]): number[]
