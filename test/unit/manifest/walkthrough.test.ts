import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The walkthrough (package.json contributes.walkthroughs, media/walkthrough/*.md) is the README's First steps inside
 * the editor: the same steps in the same order with the same actions. The README's step names every button, menu
 * entry, file and key in bold or as code; the walkthrough step that stands for it names each of them too, and a
 * walkthrough button names nothing the README's step does not (a "New Payload…" that the README no longer uses).
 */
describe('manifest: the walkthrough follows the README First steps', () => {
  const root = join(__dirname, '../../..');
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    contributes: { walkthroughs: { steps: { id: string; title: string; description: string; media: { markdown?: string } }[] }[] };
  };
  const steps = manifest.contributes.walkthroughs[0]?.steps ?? [];
  /** README First step (1-based) → the walkthrough steps that stand for it, in the walkthrough's order. */
  const STEPS_OF: readonly (readonly string[])[] = [['generateKey'], ['verify'], ['firstRegistration'], ['ownProgram'], ['fileClaim', 'cancel']];

  const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
  /** The README's numbered First steps, each item's text with its continuation lines. */
  const readmeSteps = (): string[] => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const start = readme.indexOf('\nFirst steps on the Local sandbox');
    assert.ok(start >= 0, 'the README has its First steps');
    const block = readme.slice(start).split('\n\n')[0] ?? '';
    return block.split(/\n(?=\d+\. )/).slice(1).map((item) => flat(item.replace(/^\d+\. /, '')));
  };
  /** What a README step names: its bold and code spans. */
  const named = (text: string) => [...text.matchAll(/\*\*([^*]+)\*\*|`([^`]+)`/g)].map((m) => flat(m[1] ?? m[2] ?? ''));
  /** A walkthrough step as a person reads it: title, description and its page, without markdown emphasis. */
  const textOf = (id: string, { fallback = true } = {}) => {
    const step = steps.find((s) => s.id === id);
    assert.ok(step, `the walkthrough has step ${id}`);
    let page = step.media.markdown ? readFileSync(join(root, step.media.markdown), 'utf8') : '';
    // A paragraph for a workspace without the examples (the walkthrough also opens on install) is off the README's path.
    if (!fallback) page = page.split('\n\n').filter((p) => !p.startsWith('No `examples/` folder')).join('\n\n');
    return flat(`${step.title}\n${step.description}\n${page}`.replace(/\*\*|`/g, ''));
  };

  it('its first steps are the README steps, in order', () => {
    assert.equal(readmeSteps().length, STEPS_OF.length, 'one entry of STEPS_OF per README first step');
    assert.deepEqual(steps.slice(0, STEPS_OF.flat().length).map((s) => s.id), STEPS_OF.flat());
  });

  readmeSteps().forEach((text, i) => {
    const ids = STEPS_OF[i] ?? [];
    it(`README step ${i + 1}: ${ids.join(' + ')} names every action, file and key it names`, () => {
      const walk = ids.map((id) => textOf(id)).join(' ');
      const missing = named(text).filter((n) => !walk.includes(n));
      assert.deepEqual(missing, [], `the walkthrough's ${ids.join(' + ')} leaves out what README step ${i + 1} names`);
    });
    it(`README step ${i + 1}: the buttons of ${ids.join(' + ')} are actions it names, and none asks for a hand edit`, () => {
      const plain = text.replace(/\*\*|`/g, '').toLowerCase();
      for (const id of ids) {
        const description = steps.find((s) => s.id === id)?.description ?? '';
        for (const [, label] of description.matchAll(/\[([^\]]+)\]\(command:/g)) {
          assert.ok(label && plain.includes(label.toLowerCase()), `${id}'s button "${label}" is not an action of README step ${i + 1}`);
        }
        // The README's steps ask for no paste and no hand edit (its UI test counts them): neither may the walkthrough.
        assert.doesNotMatch(textOf(id, { fallback: false }), /\b(change|edit|paste|replace) (it|the|its|a|your)\b/i, `${id} asks for a hand edit README step ${i + 1} does not`);
      }
    });
  });
});
