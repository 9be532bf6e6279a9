/**
 * A small code generator for the diagnostics' per-schema predicates (fastAccept.ts, knownKeys.ts; performance
 * design of the diagnostics pipeline): a schema becomes one JavaScript function built with `new Function`, each
 * object schema a function of its own reading its properties by name, so every read sees one shape (V8 caches
 * it) and no predicate is called through a shared site. Only property names enter the code, as JSON string
 * literals; every other value the code needs (patterns, refinement functions, sets) is passed in as a parameter.
 */
export class Gen<K extends object = object> {
  readonly refs: unknown[] = [];
  private readonly fns: string[] = [];
  private readonly named = new Map<K, string>();

  /** The parameter name under which the code reads `value` (`r0`, `r1`, ...). */
  ref(value: unknown): string {
    this.refs.push(value);
    return `r${this.refs.length - 1}`;
  }

  /**
   * The name of the function of `key` (`f0`, `f1`, ...) taking `v`, its body written by `body` on first use. The
   * name is known before the body is written, so a schema that contains itself (a recursive lazy schema) ends.
   */
  fn(key: K, body: () => string): string {
    let name = this.named.get(key);
    if (name) return name;
    name = `f${this.named.size}`;
    this.named.set(key, name);
    const index = this.fns.push('') - 1;
    this.fns[index] = `function ${name}(v) {\n  let x, t;\n${body()}\n}`;
    return name;
  }

  /** The predicate: the functions written, and one returning the boolean expression `test` over its argument `v`. */
  link<F extends (value: unknown) => boolean>(test: string): F {
    const body = `${this.fns.join('\n')}\nreturn function test(v) {\n  let x, t;\n  return ${test};\n};`;
    return new Function(...this.refs.map((_, i) => `r${i}`), body)(...this.refs) as F;
  }
}
