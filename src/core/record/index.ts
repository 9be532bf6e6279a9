/**
 * Recording a flow from what was sent (docs/flows.md, Recording a flow): exchanges in, `.http` text out, for
 * `tpp record`, the editor's Save as Flow and `npm run bench:record`.
 */
export { recordFlow } from './recordFlow';
export { RecordRefused, type RecordedFlow, type RecordOptions, type Refusal } from './types';
export { oneOriginBases, type BaseAddresses } from './bases';
export { exchangeOfRecord, exchangesOfLog, LOG_LINE_BODY_HINT, LOGGED_ORIGIN } from './sources';
