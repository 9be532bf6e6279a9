/** Variables in payload files: `{{$guid}}`, `{{lastRegistration.id}}`, `{{storeNumber}}`. */
export { hasVariables, parseRefs, wholeRef, forEachVariableString, type VariableRef } from './syntax';
export { KNOWN_DYNAMIC_VARIABLES, MAX_MAGNITUDE, MAX_DATE_OFFSET_DAYS, dynamicVariable, isoDay, type DynamicVariable, type DynamicType } from './dynamic';
export { CAPTURES, captureFromResponse, captureNames, isCaptureName, isCaptureRoot, type Captures, type CaptureInfo } from './captures';
export { VariableError, environmentVariables, readPath, resolvePayloadVariables, variablesUsed, type VariableScope } from './resolve';
export { checkVariables, type VariableCheck } from './check';
export { sendOrder, type OrderItem } from './order';
export { CaptureFile } from './captureFile';
