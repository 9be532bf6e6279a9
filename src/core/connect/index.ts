/**
 * Connecting an application to an environment (Connect Your Application…, `tpp connect`): the dotenv text the code
 * samples read, how each language loads it, and writing files without overwriting (private keys with mode 0600).
 */
export * from './dotenv';
export * from './files';
export * from './writeFiles';
