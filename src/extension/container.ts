import * as vscode from 'vscode';
import { join } from 'node:path';
import { Logger } from './log';
import { JwtService } from './services/jwtService';
import { JwtPreviewProvider } from './jwt/previewProvider';
import { RecordProvider } from './response/recordProvider';
import { ResponseView } from './response/responseView';
import { ActiveEnvironment } from './services/activeEnvironment';
import { ApiClients } from './services/apiClients';
import { EnvironmentModel } from './services/environmentModel';
import { EnvironmentSettings } from './services/environmentSettings';
import { HistoryModel } from './services/historyModel';
import { IntegrationLog } from './services/integrationLog';
import { MistakesTour } from './services/integrationLogTour';
import { KeyStore } from './services/keyStore';
import { LocalSandbox } from './services/localSandbox';
import { RegistrationsModel } from './services/registrationsModel';

/**
 * The one owner of the extension's services and their lifetimes (after gitlens' `Container`): built once by
 * `activate`, handed to every command, the view and the status bar, and disposed with the extension, in the
 * reverse order of creation. Views and status bar subscribe to the models' events; nothing is a module global.
 */
export class Container implements vscode.Disposable {
  readonly log: Logger;
  readonly active: ActiveEnvironment;
  readonly keys: KeyStore;
  readonly settings: EnvironmentSettings;
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
  /** Read-only `tpp-response:` documents of answers. */
  readonly responses: ResponseView;
  /** Read-only, refreshable `tpp-record:` JSON documents of tree nodes. */
  readonly records: RecordProvider;
  /** Every request any client sent to the Local sandbox, with its diagnosis (Integration Log view). */
  readonly integrationLog: IntegrationLog;
  /** The deliberate-mistakes tour (a script in a terminal against the Local sandbox). */
  readonly mistakesTour: MistakesTour;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(context: vscode.ExtensionContext) {
    const own = <T extends vscode.Disposable>(d: T): T => (this.disposables.push(d), d);
    this.log = own(new Logger());
    this.active = own(new ActiveEnvironment(context.globalState));
    this.keys = own(new KeyStore(context.secrets));
    this.settings = own(new EnvironmentSettings());
    this.environments = own(new EnvironmentModel(this.active, this.keys, this.settings));
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
    this.responses = own(new ResponseView());
    this.records = own(new RecordProvider(this.api));
    this.integrationLog = own(new IntegrationLog(join(context.globalStorageUri.fsPath, 'integration-log'), context.globalState, this.log));
    own(this.localSandbox.onDidLogExchanges((records) => this.integrationLog.add(records)));
    this.mistakesTour = own(new MistakesTour(this.localSandbox, join(__dirname, 'send-mistakes.js')));
  }

  dispose(): void {
    for (const d of this.disposables.reverse()) d.dispose();
    this.disposables.length = 0;
  }
}

/** What a command handler, the send helpers and the view are given: the container. */
export type Services = Container;
