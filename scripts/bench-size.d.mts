// Types of scripts/bench-size.mjs for the TypeScript benches.
export declare const SMOKE: boolean;
export declare function sized<T>(full: T, smoke: T): T;
export declare function judgeTarget(met: boolean): boolean;
export declare function done(name: string): void;
