/**
 * Partner API client (spec: Endpoints, Authentication, Errors): undici transport with a fresh JWT per request,
 * retries of 429/5xx with backoff, jitter and Retry-After, duplicate-safe creates, same-origin redirects,
 * https-only (loopback excepted), timeouts and cancellation; answers parsed with the contract and typed by the
 * endpoint table (`call('getTireProtectionRegistration', { id }, undefined)` answers `ResponseOf<'getTireProtectionRegistration'>`);
 * errors are classes checked with `instanceof` (ApiError and its AuthError, NetworkError, CancelledError, …).
 */
export { createPartnerClient, createClientFor, interpret, CHECKABLE_CREATES } from './client';
export type { PartnerClient, PartnerClientOptions, CallOptions, ApiResponse, TokenProvider, EndpointTable } from './client';
export type { ResponseOf, BodyOf, ParamsOf, QueryOf } from '../contract/endpointTypes';
export {
  ApiError,
  AuthError,
  apiErrorFor,
  MalformedResponseError,
  NetworkError,
  PolicyError,
  CancelledError,
  ResponseTooLargeError,
  ClientConfigError,
  isAbortError,
} from './errors';
export type { CallInfo, PolicyReason } from './errors';
export { describeStatus, documentedStatuses, RETRYABLE_STATUSES, REDIRECT_STATUSES } from './status';
export type { StatusInfo, StatusKind } from './status';
export { DEFAULT_RETRY, backoffDelayMs, parseRetryAfterMs, normalizeRetry } from './backoff';
export type { RetrySettings } from './backoff';
export { send, checkUrl } from './transport';
export type { TransportEvent, TransportOptions, TransportRequest, RawExchange, RepeatPolicy, CheckOutcome } from './transport';
export { DEFAULT_MAX_RESPONSE_BYTES } from './attempt';
export { sameClaim, sameRegistration } from './sameRecord';
export { howToCheck } from './repeat';
export { isLoopbackHost, insecureUrlProblem } from './urlPolicy';
export { signalFromCancellationToken } from './cancellation';
export type { CancellationTokenLike } from './cancellation';
export { routePayload, PayloadRefused } from './route';
export type { PayloadRoute, RouteNeed, RouteAnswers } from './route';
