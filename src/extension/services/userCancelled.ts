/** Marks a cancellation whichever bundle's copy of {@link UserCancelled} made it (a registered symbol is one per process). */
const CANCELLED = Symbol.for('tpp.userCancelled');

/**
 * Thrown (or rejected) when the user dismissed a prompt: the command registry stops the command silently.
 *
 * dist/extension.js, dist/commands.js and dist/flows.js each hold a copy of this class (scripts/build.mjs), so
 * `instanceof UserCancelled` recognises an instance of any copy by its mark; a subclass still checks its prototype.
 */
export class UserCancelled extends Error {
  readonly [CANCELLED] = true;

  constructor() {
    super('Cancelled by the user');
    this.name = 'UserCancelled';
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== UserCancelled) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as { [CANCELLED]?: unknown })[CANCELLED] === true;
  }
}
