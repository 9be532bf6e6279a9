import * as vscode from 'vscode';
import type { EndpointId } from '../../core/contract/types';
import { ListChange, ListingEvents, RecordChange, RegistrationListings, RegistrationReads } from '../../core/listing/registrationListings';
import type { ApiClients } from './apiClients';
import type { EnvironmentSettings } from './environmentSettings';
import type { KeyStore } from './keyStore';

export type { RegistrationFilter } from '../../core/listing/registrationListings';

type Listings = RegistrationListings;

/**
 * The registrations the view shows, per environment and product (spec: Tire-protection registrations, Motor-club
 * registrations): core's {@link RegistrationListings} (pages, filter, details, what a write changes), read through
 * {@link ApiClients} with every request kept out of the history, with VS Code events: {@link onDidChange} names the
 * one list that changed and {@link onDidChangeRecord} the one registration, so the view redraws only those. Loaded
 * data is dropped on a settings or key change, and on a successful data-changing request of that environment.
 */
export class RegistrationsModel implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ListChange>();
  private readonly recordEmitter = new vscode.EventEmitter<RecordChange>();
  private readonly subscriptions: vscode.Disposable[];
  private readonly reads: RegistrationReads;
  private readonly events: ListingEvents = {
    list: (change) => this.emitter.fire(change),
    record: (change) => this.recordEmitter.fire(change),
    // The palette offers Clear Registration Filter only while a list is filtered.
    filtered: (any) => void vscode.commands.executeCommand('setContext', 'tpp.registrationsFiltered', any),
  };
  private made: Listings | undefined;
  /** Fires with the list whose data or filter changed. */
  readonly onDidChange = this.emitter.event;
  /** Fires with the one registration whose details were read or changed (its row redraws, not the folder). */
  readonly onDidChangeRecord = this.recordEmitter.event;

  constructor(api: ApiClients, settings: EnvironmentSettings, keys: KeyStore) {
    const quiet = { quiet: true };
    this.reads = {
      list: (env) => (id, params, o) => api.send(env, id as EndpointId, params, undefined, { ...o, ...quiet }).then((r) => r.response),
      read: (env, id, registrationId) => api.send(env, id, { id: registrationId }, undefined, quiet).then((r) => r.response.body),
      pageSize: () => settings.requests().pageSize,
    };
    this.subscriptions = [
      // New addresses, Partner ID or page size: what was read may be another server's data.
      settings.onDidChange(() => this.invalidate()),
      keys.onDidChange((env) => this.invalidate(env)),
      api.onDidChangeData((change) => this.listings.dataChanged(change)),
    ];
  }

  /**
   * Made on first use: it lives in dist/core.js, which activation does not load (scripts/lazy-core.mjs). Before
   * that nothing is loaded or filtered: the reads of state answer as an empty listing would, without making it.
   */
  private get listings(): Listings {
    return (this.made ??= new RegistrationListings(this.reads, this.events));
  }

  filter(...a: Parameters<Listings['filter']>): ReturnType<Listings['filter']> {
    return this.made?.filter(...a) ?? {};
  }

  setFilter(...a: Parameters<Listings['setFilter']>): void {
    this.listings.setFilter(...a);
  }

  matches(...a: Parameters<Listings['matches']>): boolean {
    return this.made?.matches(...a) ?? true;
  }

  pages(...a: Parameters<Listings['pages']>): ReturnType<Listings['pages']> {
    return this.listings.pages(...a);
  }

  loadedPages(...a: Parameters<Listings['loadedPages']>): ReturnType<Listings['loadedPages']> {
    return this.made?.loadedPages(...a);
  }

  loadMore(...a: Parameters<Listings['loadMore']>): Promise<number> {
    return this.listings.loadMore(...a);
  }

  registration(...a: Parameters<Listings['registration']>): ReturnType<Listings['registration']> {
    return this.listings.registration(...a);
  }

  registrationDetails(...a: Parameters<Listings['registrationDetails']>): ReturnType<Listings['registrationDetails']> {
    return this.listings.registrationDetails(...a);
  }

  /**
   * A successful write, the editor's own or another client's on the Local sandbox (what it changes:
   * {@link RegistrationListings.dataChanged}).
   */
  dataChanged(...a: Parameters<Listings['dataChanged']>): void {
    this.made?.dataChanged(...a);
  }

  settled(...a: Parameters<Listings['settled']>): Promise<void> {
    return this.made ? this.made.settled(...a) : Promise.resolve();
  }

  stateOf(...a: Parameters<Listings['stateOf']>): ReturnType<Listings['stateOf']> {
    return this.listings.stateOf(...a);
  }

  /** Drops loaded data and fires {@link onDidChange} once per list; nothing was loaded before first use. */
  invalidate(...a: Parameters<Listings['invalidate']>): void {
    this.made?.invalidate(...a);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.emitter.dispose();
    this.recordEmitter.dispose();
  }
}
