/** The codes of the plausibility checks (semantic.ts, semanticTires.ts); docs/diagnostics.md lists each. */
export const SEMANTIC_RULES = {
  tireDots: 'tire-dots',
  duplicateRegistration: 'duplicate-registration',
  futureDate: 'future-date',
  pastDate: 'past-date',
  vehicleYear: 'vehicle-year',
  emailFormat: 'email-format',
  commercialVehicleCase: 'commercial-vehicle-case',
  sandboxTireLimit: 'sandbox-tire-limit',
  tireCount: 'tire-count',
  emptyValue: 'empty-value',
  dateWithoutZone: 'date-without-zone',
  deprecated: 'deprecated',
} as const;
