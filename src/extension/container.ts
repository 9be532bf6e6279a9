import * as vscode from 'vscode';
import { join } from 'node:path';
import { Logger } from './log';
import { JwtService } from './services/jwtService';
import { JwtPreviewProvider } from './jwt/previewProvider';
import { DraftFiles } from './documents/draftFiles';
import { RecordProvider } from './response/recordProvider';
import { ResponsePanel } from './response/responsePanel';
import { ActiveEnvironment } from './services/activeEnvironment';
import { ApiClients } from './services/apiClients';
import { ApplicationWatch } from './services/applicationWatch';
import { EnvironmentModel } from './services/environmentModel';
import { SetupMarks } from './services/environmentSetup';
import { EnvironmentSettings } from './services/environmentSettings';
import type { FlowIndex } from './services/flowIndex';
import type { FlowRuns } from './services/flowRuns';
import { FlowFeatures } from './flowFeatures';
import { HistoryModel } from './services/historyModel';
import { EDITOR_READ_USER_AGENT, EDITOR_SEND_USER_AGENT, IntegrationLog } from './services/integrationLog';
import type { Exchange } from '../core/exchange/types';
import { otherClientWrites } from '../core/exchange/otherClientWrites';
import { MistakesTour } from './services/integrationLogTour';
import { KeyStore } from './services/keyStore';
import { LocalSandbox } from './services/localSandbox';
import { RegistrationsModel } from './services/registrationsModel';
import { VariablesService } from './services/variables';

/**
 * The one owner of the extension's services and their lifetimes (after gitlens' `Container`): built once by
 * `activate`, handed to every command, the view and the status bar, and disposed with the extension, in the
 * reverse order of creation. Views and status bar subscribe to the models' events; nothing is a module global.
 */
export class Container implements vscode.Disposable {
  readonly log: Logger;
  /** Choices remembered across restarts that belong to no model (e.g. Copy as Code's last language). */
  readonly choices: vscode.Memento;
  readonly active: ActiveEnvironment;
  readonly keys: KeyStore;
  readonly settings: EnvironmentSettings;
  /** Setup marks per environment (public key exported, connection verified), kept across restarts. */
  readonly marks: SetupMarks;
  /** Setup state of each environment (key, Partner ID, addresses); fires when keys, settings or the active one change. */
  readonly environments: EnvironmentModel;
  /** Mints and inspects partner JWTs per environment (keys from SecretStorage). */
  readonly jwt: JwtService;
  /** Opens read-only JWT preview documents. */
  readonly jwtPreview: JwtPreviewProvider;
  /** The embedded Local sandbox (started lazily on first use of the Local environment). */
  readonly localSandbox: LocalSandbox;
  /** The request history and the connection state derived from it. */
  readonly history: HistoryModel;
  /** Sends partner API requests per environment (recorded in {@link history}). */
  readonly api: ApiClients;
  /** Registration pages, registrations and their metadata, per environment, as the view shows them. */
  readonly registrations: RegistrationsModel;
  /** The response view: one webview panel beside the editor showing an exchange (request, answer, diagnosis). */
  readonly responses: ResponsePanel;
  /** Read-only, refreshable `tpp-record:` JSON documents of tree nodes. */
  readonly records: RecordProvider;
  /** `{{variables}}` of payload files: the `tpp.variables` setting and the captures per environment. */
  readonly variables: VariablesService;
  /** In-memory `tpp-draft:` payload drafts (File Claim…), dropped once closed. */
  readonly drafts: DraftFiles;
  /** Every request any client sent to the Local sandbox, with its diagnosis (Integration Log view). */
  readonly integrationLog: IntegrationLog;
  /** The mistakes tour (a script in a terminal against the Local sandbox). */
  readonly mistakesTour: MistakesTour;
  /** Watch My Application: `tpp proxy` in front of Sandbox or Production, its exchanges in the Integration Log. */
  readonly applicationWatch: ApplicationWatch;
  /** Flows (`.http` files): their index, runs and editor features, loaded from dist/flows.js on first use (docs/flows-editor.md). */
  readonly flowFeatures: FlowFeatures;
  private readonly disposables: vscode.Disposable[] = [];
  /** The flow index and runs, made on first use from dist/flows.js (their code is not loaded at activation). */
  private flowServicesMade: { readonly flows: FlowIndex; readonly flowRuns: FlowRuns } | undefined;

  constructor(context: vscode.ExtensionContext) {
    const own = <T extends vscode.Disposable>(d: T): T => (this.disposables.push(d), d);
    this.log = own(new Logger());
    this.choices = context.globalState;
    this.active = own(new ActiveEnvironment(context.globalState));
    this.keys = own(new KeyStore(context.secrets));
    this.settings = own(new EnvironmentSettings());
    this.marks = own(new SetupMarks(context.globalState));
    // The Local Partner ID is generated by the LocalSandbox (created below) before its process ever starts.
    this.environments = own(new EnvironmentModel(this.active, this.keys, this.settings, this.marks, () => this.localSandbox?.partnerId));
    this.jwt = own(new JwtService(this.keys, this.settings));
    this.jwtPreview = own(new JwtPreviewProvider());
    // The Local sandbox starts on first use (a Local token needs its address), never at activation.
    this.localSandbox = own(new LocalSandbox(context, this.keys, this.log));
    own(
      this.jwt.setLocalTarget(async () => {
        try {
          const s = await this.localSandbox.ensureStarted();
          return { iss: s.partnerId, aud: s.v3BaseUrl };
        } catch (err) {
          this.log.error('The Local sandbox could not start', err);
          return undefined;
        }
      }),
    );
    this.history = own(new HistoryModel(context.globalState, join(context.globalStorageUri.fsPath, 'history'), this.log));
    this.api = own(new ApiClients(this.settings, this.keys, this.jwt, this.log, this.history, this.localSandbox));
    this.registrations = own(new RegistrationsModel(this.api, this.settings, this.keys));
    this.responses = own(new ResponsePanel(context.extensionUri));
    this.records = own(new RecordProvider(this.api));
    this.variables = own(new VariablesService(context.globalState, this.active));
    this.drafts = own(new DraftFiles());
    this.integrationLog = own(new IntegrationLog(join(context.globalStorageUri.fsPath, 'integration-log'), context.globalState, this.log));
    own(
      this.localSandbox.onDidLogExchanges((records) => {
        this.integrationLog.add(records);
        // The Connection row of Local shows the latest answer of any client, not only the editor's own requests.
        const latest = records.filter((x) => x.response && !isEditorRequest(x)).at(-1);
        if (latest?.response) this.history.noteOtherClient('local', latest.response.status, latest.time);
        // Your application's writes on Local change the Registrations folders as the editor's own sends do, which
        // ApiClients reports (README, Your application: its registration appears in the tree).
        for (const w of otherClientWrites(records, [EDITOR_SEND_USER_AGENT, EDITOR_READ_USER_AGENT])) this.registrations.dataChanged({ env: 'local', ...w });
      }),
    );
    this.mistakesTour = own(new MistakesTour(this.localSandbox, join(__dirname, 'send-mistakes.js')));
    this.applicationWatch = own(new ApplicationWatch(this.keys, this.settings, this.integrationLog, this.log));
    this.flowFeatures = own(new FlowFeatures(this));
  }

  /** The parsed `.http` flow files of the workspace, found on first use and kept current (loads the flow features). */
  get flows(): FlowIndex {
    const made = this.flowServices();
    this.flowFeatures.ensure();
    return made.flows;
  }

  /** Runs flows through the editor's client per environment and keeps each request's last result (loads the flow features). */
  get flowRuns(): FlowRuns {
    const made = this.flowServices();
    this.flowFeatures.ensure();
    return made.flowRuns;
  }

  /** FlowIndex and FlowRuns, made once from the flows bundle and disposed with the container's other services. */
  flowServices(): { readonly flows: FlowIndex; readonly flowRuns: FlowRuns } {
    if (!this.flowServicesMade) {
      const m = this.flowFeatures.module();
      const flows = new m.FlowIndex();
      const flowRuns = new m.FlowRuns(this.api, this.jwt, this.variables, this.integrationLog);
      // Before the flow features in the list, so that they are disposed after the features that read them.
      this.disposables.splice(this.disposables.indexOf(this.flowFeatures), 0, flows, flowRuns);
      this.flowServicesMade = { flows, flowRuns };
    }
    return this.flowServicesMade;
  }

  dispose(): void {
    for (const d of this.disposables.reverse()) d.dispose();
    this.disposables.length = 0;
  }
}

/** A request the editor sent itself (kept in the history) or read quietly (noted by ApiClients). */
function isEditorRequest(x: Exchange): boolean {
  const agent = x.request.headers?.['user-agent'];
  return agent === EDITOR_SEND_USER_AGENT || agent === EDITOR_READ_USER_AGENT;
}

/** What a command handler, the send helpers and the view are given: the container. */
export type Services = Container;
