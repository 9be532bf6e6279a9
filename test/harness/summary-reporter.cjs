// Mocha reporter: the spec reporter's output, then one closing line "<tier>: N passed, N failed".
// The tier name comes from TPP_TIER (default "unit"). Used by the unit tier and by the host runner.
const Mocha = require('mocha');
const { EVENT_RUN_END } = Mocha.Runner.constants;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats || { passes: 0, failures: 0 };
      console.log(`${process.env.TPP_TIER || 'unit'}: ${s.passes} passed, ${s.failures} failed`);
    });
  }
}
module.exports = SummaryReporter;
