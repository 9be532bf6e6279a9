/**
 * The Exchange of a call is built by `exchangeOf` (src/core/exchange/exchangeOf.ts); these names stay for callers
 * written against them until they import it from there.
 */
export { exchangeOf as toExchange, headerRecord as exchangeHeaders, type SentRequestInfo } from '../exchange/exchangeOf';
export { newExchangeId as exchangeId } from '../exchange/id';
