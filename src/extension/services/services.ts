import { Logger } from '../log';
import { EnvironmentModel } from './environmentModel';
import type { JwtService } from '../jwt/jwtService';
import type { JwtPreviewProvider } from '../jwt/previewProvider';
import type { LocalSandbox } from './localSandbox';
import type { ApiClients } from './apiClients';
import type { ResponseView } from '../response/responseView';
import type { RecordProvider } from '../response/recordProvider';

/** Everything a command handler may use; built once by extension.ts. */
export interface Services {
  readonly log: Logger;
  readonly environments: EnvironmentModel;
  /** Mints and inspects partner JWTs per environment (keys from SecretStorage). */
  readonly jwt: JwtService;
  /** Opens read-only JWT preview documents. */
  readonly jwtPreview: JwtPreviewProvider;
  /** The embedded Local sandbox (started lazily on first use of the Local environment). */
  readonly localSandbox?: LocalSandbox;
  /** Sends partner API requests per environment and keeps the request history. */
  readonly api?: ApiClients;
  /** Read-only `tpp-response:` documents of answers. */
  readonly responses?: ResponseView;
  /** Read-only, refreshable `tpp-record:` JSON documents of tree nodes. */
  readonly records?: RecordProvider;
}
