/**
 * Flows: `.http` request files run as tests (docs/flows.md). The parser, the printer, and (run.ts) the runner
 * shared by `tpp run` and the editor's Test Explorer.
 */
export type * from './types';
export { parseFlow, FLOW_METHODS } from './parse';
export { printFlow } from './print';
export { ASSERTION_OPERATORS, parseAssertion, printAssertion } from './assertGrammar';
export { runFlow, runFlows, requestsToRun, type FlowRunLimits } from './run';
export { environmentVariablesOf } from './variables';
export { evaluateAssertion, IMPLIED_ASSERTION, type AssertionTarget } from './assert';
export { FlowPositionError, FlowVariableError, type FlowAnswer } from './variables';
export { checkFlowForRun, type FlowCheckOptions } from './check';
