import { Queryable, asStorageError } from './database';

/** Carries an error thrown by the caller's own transaction body through the driver, unchanged. */
class BodyError {
  constructor(readonly inner: unknown) {}
}

/**
 * Runs the transaction body `fn` through a driver's transaction runner `begin`, telling the two kinds of failure
 * apart: what `fn` throws (a business error, a constraint violation of one of its statements) is rethrown as it
 * is; what the driver itself throws (BEGIN/COMMIT failing, a lost connection) becomes a StorageError.
 */
export async function inTransaction<T>(begin: (run: (tx: Queryable) => Promise<T>) => Promise<T>, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    return await begin(async (tx) => {
      try {
        return await fn(tx);
      } catch (err) {
        throw new BodyError(err);
      }
    });
  } catch (err) {
    if (err instanceof BodyError) throw err.inner;
    throw asStorageError(err);
  }
}
