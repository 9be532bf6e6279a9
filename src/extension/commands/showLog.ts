import { CommandDef } from './registry';

/** `tpp.showLog`: reveals the "Tire Protection" output channel. */
export const showLog: CommandDef = {
  id: 'tpp.showLog',
  run({ log }) {
    log.show();
  },
};
