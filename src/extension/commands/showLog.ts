import { defineCommand, noArgs } from './registry';

/** `tpp.showLog`: reveals the "Tire Protection" output channel. */
export const showLog = defineCommand({
  id: 'tpp.showLog',
  needs: ['log'],
  args: noArgs,
  run({ log }) {
    log.show();
  },
});
