import { Logger } from '../log';
import { EnvironmentModel } from './environmentModel';

/** Everything a command handler may use; built once by extension.ts. */
export interface Services {
  readonly log: Logger;
  readonly environments: EnvironmentModel;
}
