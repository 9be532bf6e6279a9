/** `2025-04-02` from an ISO 8601 string (or the string as is); `''` for anything else. */
export function day(v: unknown): string {
  return typeof v === 'string' ? v.slice(0, 10) : '';
}
