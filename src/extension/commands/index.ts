import type { Services } from '../container';
import { CommandDef, runCommand } from './registry';
import { generateKeyPair } from './generateKeyPair';
import { confirmKeyRotation } from './confirmKeyRotation';
import { cancelKeyRotation } from './cancelKeyRotation';
import { copyPublicKey } from './copyPublicKey';
import { deleteKey } from './deleteKey';
import { importPrivateKey } from './importPrivateKey';
import { inspectJwt } from './inspectJwt';
import { mintJwt } from './mintJwt';
import { rotateKey } from './rotateKey';
import { savePublicKey } from './savePublicKey';
import { setEligibilityToken } from './setEligibilityToken';
import { verifyConnection } from './verifyConnection';
import { newPayload } from './newPayload';
import { refreshEnvironments } from './refreshEnvironments';
import { selectEnvironment } from './selectEnvironment';
import { useEnvironment } from './useEnvironment';
import { setPartnerId } from './setPartnerId';
import { showLog } from './showLog';
import { loadSampleData } from './loadSampleData';
import { sendPayload } from './sendPayload';
import { cancelRegistration } from './cancelRegistration';
import { fileClaim } from './fileClaim';
import { updateMotorClubCustomer } from './updateMotorClubCustomer';
import { cancelMotorClubRegistration } from './cancelMotorClubRegistration';
import { createShop } from './createShop';
import { updateShop } from './updateShop';
import { addPart } from './addPart';
import { recordTransaction } from './recordTransaction';
import { lookUpShop } from './lookUpShop';
import { checkEligibility } from './checkEligibility';
import { copyId } from './copyId';
import { openRecord } from './openRecord';
import { refreshRecord } from './refreshRecord';
import { loadMoreRegistrations } from './loadMoreRegistrations';
import { refreshRegistrations } from './refreshRegistrations';
import { filterRegistrations } from './filterRegistrations';
import { clearRegistrationFilter } from './clearRegistrationFilter';
import { resendRequest } from './resendRequest';
import { copyAsCode } from './copyAsCode';
import { runProgram } from './runProgram';
import { writeProgram } from './writeProgram';
import { copyWatchSettings, stopWatchingApplication, watchApplication } from './watchApplication';
import { clearHistory } from './clearHistory';
import { configureEnvironment } from './configureEnvironment';
import { checkPrerequisites } from './checkPrerequisites';
import { showExchange } from './showExchange';
import { openExchangeAsPayload } from './openExchangeAsPayload';
import { clearIntegrationLog } from './clearIntegrationLog';
import { filterIntegrationLog } from './filterIntegrationLog';
import { runMistakesTour } from './runMistakesTour';
import { setLocalPort } from './setLocalPort';
import { copyAddress } from './copyAddress';
import { copyLocalControlToken } from './copyLocalControlToken';
import { connectApplication } from './connectApplication';
import { resumeBackfill } from './resumeBackfill';
import { runFlow } from './runFlow';
import { sendFlowRequest } from './sendFlowRequest';
import { showFlowExchange } from './showFlowExchange';
import { saveAsFlow } from './saveAsFlow';

/** Every command of the extension; each id is also contributed in package.json. */
export const COMMANDS: readonly CommandDef[] = [selectEnvironment, useEnvironment, refreshEnvironments, generateKeyPair, setPartnerId,
  copyPublicKey, savePublicKey, importPrivateKey, rotateKey, confirmKeyRotation, cancelKeyRotation, deleteKey, mintJwt, inspectJwt, verifyConnection, setEligibilityToken,
  showLog, newPayload, loadSampleData,
  // Browse, send and act (main job)
  sendPayload, cancelRegistration, fileClaim, updateMotorClubCustomer, cancelMotorClubRegistration, createShop, updateShop, addPart,
  recordTransaction, lookUpShop, checkEligibility, copyId, openRecord, refreshRecord, loadMoreRegistrations, refreshRegistrations,
  filterRegistrations, clearRegistrationFilter, resendRequest, copyAsCode, writeProgram, runProgram, clearHistory,
  // Environment setup
  configureEnvironment, checkPrerequisites, setLocalPort, copyAddress, copyLocalControlToken, connectApplication,
  // Response view and history
  showExchange, openExchangeAsPayload,
  // Integration Log
  clearIntegrationLog, filterIntegrationLog, runMistakesTour, watchApplication, stopWatchingApplication, copyWatchSettings,
  // Flows (.http files run as tests)
  runFlow, resumeBackfill, sendFlowRequest, showFlowExchange, saveAsFlow];

const BY_ID: ReadonlyMap<string, CommandDef> = new Map(COMMANDS.map((c) => [c.id, c]));

/**
 * Runs command `id` with the arguments VS Code passed, through the one error wrapper ({@link runCommand}). This module
 * is dist/commands.js, loaded by the stubs `activate` registers, on the first command run (scripts/build.mjs).
 * Rejects with an Error when no command has that id (an id contributed in package.json without a handler).
 */
export async function executeCommand(services: Services, id: string, args: readonly unknown[]): Promise<unknown> {
  const def = BY_ID.get(id);
  if (!def) throw new Error(`No handler for the command ${id}.`);
  return runCommand(services, def, args);
}
