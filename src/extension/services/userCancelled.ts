/** Thrown (or rejected) when the user dismissed a prompt: the command registry stops the command silently. */
export class UserCancelled extends Error {
  constructor() {
    super('Cancelled by the user');
    this.name = 'UserCancelled';
  }
}
