/** Payload diagnostics, shared by the editor's Problems and quick fixes and by `tpp validate` (docs/diagnostics.md). */
export * from './types';
export { LineIndex } from './lineIndex';
export { RULES, validateText, insertPropertiesEdit, formatMoney, type ValidationTarget, type SemanticCheck, type Finding } from './engine';
export { SEMANTIC_RULES } from './semantic';
export { CONTRACT_RULES, KIND_SECTIONS, specAnchor, diagnosePayload, findSchemaDeclaration, kindFromFileName, isPayloadText, guessKind, addSchemaEdit, type PayloadDiagnosis } from './payload';
export { editorSchema } from './editorSchema';
export { DIAGNOSTIC_CODES, NO_SCHEMA, canDisable, withoutDisabled, type DiagnosticCode, type CodeBasis } from './codes';
