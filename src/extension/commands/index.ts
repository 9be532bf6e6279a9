import { CommandDef } from './registry';
import { generateKeyPair } from './generateKeyPair';
import { cancelKeyRotation, confirmKeyRotation } from './confirmKeyRotation';
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
import { selectEnvironment, useEnvironment } from './selectEnvironment';
import { setPartnerId } from './setPartnerId';
import { showLog } from './showLog';
import { loadSampleData } from './loadSampleData';
import { sendPayload } from './sendPayload';
import { cancelRegistration } from './cancelRegistration';
import { fileClaim } from './fileClaim';
import { cancelMotorClubRegistration, updateMotorClubCustomer } from './motorClubCommands';
import { addPart, createShop, recordTransaction, updateShop } from './payloadCommands';
import { lookUpShop } from './lookUpShop';
import { checkEligibility } from './checkEligibility';
import { copyId } from './copyId';
import { openRecord, refreshRecord } from './openRecord';
import { clearRegistrationFilter, filterRegistrations, loadMoreRegistrations, refreshRegistrations } from './treeCommands';
import { clearHistory, copyAsCurl, resendRequest } from './historyCommands';

/** Every command of the extension; each id is also contributed in package.json. */
export const COMMANDS: readonly CommandDef[] = [selectEnvironment, useEnvironment, refreshEnvironments, generateKeyPair, setPartnerId,
  copyPublicKey, savePublicKey, importPrivateKey, rotateKey, confirmKeyRotation, cancelKeyRotation, deleteKey, mintJwt, inspectJwt, verifyConnection, setEligibilityToken,
  showLog, newPayload, loadSampleData,
  // Browse, send and act (main job)
  sendPayload, cancelRegistration, fileClaim, updateMotorClubCustomer, cancelMotorClubRegistration, createShop, updateShop, addPart,
  recordTransaction, lookUpShop, checkEligibility, copyId, openRecord, refreshRecord, loadMoreRegistrations, refreshRegistrations,
  filterRegistrations, clearRegistrationFilter, resendRequest, copyAsCurl, clearHistory];
