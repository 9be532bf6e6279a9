/**
 * Bridges VS Code cancellation tokens to AbortSignal without importing `vscode` (src/core stays editor-free):
 * anything with `isCancellationRequested` and `onCancellationRequested` fits.
 */

/** The part of `vscode.CancellationToken` the bridge needs. */
export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): { dispose(): unknown };
}

/**
 * An AbortSignal that aborts when `token` is cancelled (at once if it already is). Call `dispose()` when the
 * work is done to drop the listener.
 */
export function signalFromCancellationToken(token: CancellationTokenLike): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) {
    controller.abort();
    return { signal: controller.signal, dispose: () => undefined };
  }
  const subscription = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => void subscription.dispose() };
}
