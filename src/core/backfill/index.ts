/**
 * Backfills (docs/backfills.md): a flow run once per row of a data file, checked before sending, journalled so a
 * crash is resumed without a duplicate. `runBackfill` is the API `tpp run --data` and the editor drive.
 */
export type * from './types';
export { runBackfill, defaultJournalPath, journalOf, DEFAULT_JOBS, MAX_JOBS } from './run';
export { readRows, dataDirectiveOf, columnsUsed, RowsError, type DataRow } from './rows';
export { openJournal, readJournal, JournalError, type JournalLine, type JournalHeader, type EndStatus } from './journal';
export { checkJournal, type JournalCheck } from './journalCheck';
