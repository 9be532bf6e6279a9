/**
 * Waits until `holds()` is true, checking every few milliseconds, with no time limit of its own: the test's timeout
 * is the only one, so a slow machine makes a test slower, never wrong. Its timer never keeps the process alive, so a
 * test that timed out does not leave a check running forever.
 */
export async function eventually(holds: () => boolean): Promise<void> {
  while (!holds()) await new Promise((r) => setTimeout(r, 10).unref());
}
