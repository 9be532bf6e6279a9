/**
 * The spec's field tables, copied verbatim from ../shared/spec/partner-interface.md (section "Resources and
 * their fields"), parsed into rows. The contract tests are generated from these rows, independently of how the
 * zod schemas are built. Prose descriptions of objects (customer, address, tire, vehicle, ...) are transcribed
 * into the same table form; each keeps the spec sentence it comes from in `source`.
 */

export interface SpecRow {
  readonly field: string;
  /** Type column as written, e.g. "string(25)", "int", "money", "datetime", "ISO 8601 string", "integer". */
  readonly type: string;
  /** Req column: 'Y', 'N', '' (blank), or undefined when the table has no Req column (flags "not shown"). */
  readonly req: 'Y' | 'N' | '' | undefined;
  readonly notes: string;
}

/** Parses a markdown table; expands "X2 to X6" rows into one row per field. */
export function parseTable(md: string): SpecRow[] {
  const lines = md
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('|'));
  const cells = (l: string) => l.slice(1, -1).split('|').map((c) => c.trim());
  const header = cells(lines[0] as string).map((h) => h.toLowerCase());
  const iField = header.indexOf('field');
  const iType = header.findIndex((h) => h.startsWith('type'));
  const iReq = header.indexOf('req');
  const iNotes = header.indexOf('notes');
  const rows: SpecRow[] = [];
  for (const line of lines.slice(2)) {
    const c = cells(line);
    const field = c[iField] as string;
    const type = c[iType] as string;
    const req = iReq >= 0 ? (c[iReq] as 'Y' | 'N' | '') : undefined;
    const notes = iNotes >= 0 ? (c[iNotes] ?? '') : '';
    const range = /^([A-Za-z]+?)(\d) to \1(\d)$/.exec(field);
    if (range) {
      for (let n = Number(range[2]); n <= Number(range[3]); n++) rows.push({ field: `${range[1]}${n}`, type, req, notes });
    } else rows.push({ field, type, req, notes });
  }
  return rows;
}

// ------------------------------------------------------------------------------------------------
// Version 2 records (verbatim)
// ------------------------------------------------------------------------------------------------

export const V2_REGISTRATION_TABLE = `
| Field | Type | Req | Notes |
|---|---|---|---|
| OrgID | string(50) | N | Grouping, such as an ownership group. Blank if omitted. |
| ShopID | string(25) | Y | Shop where the tires were sold. |
| InvoiceNumber | string(50) | Y | Invoice of the registration. |
| PlanEnrollDate | datetime | Y | Enrolment date. |
| EmployeeID | string(50) | Y | Employee responsible for the plan sale. |
| CustomerID | string(50) | Y | Customer name or number, used for filtering. |
| VehicleYear | string(25) | | Four-digit year. |
| VehicleMake | string(25) | | |
| VehicleModel | string(25) | | |
| VIN | string(50) | | If available. |
| CurrentMileage | int | | Mileage at sale. |
| TiresCovered | int | Y | Tires covered by this registration. |
| TPPPrice | money | Y | Plan price per tire. |
| TireBrand | string(25) | Y | |
| TireModel | string(25) | | |
| TireSize | string(25) | Y | |
| TirePrice | money | Y | Retail price per tire. |
| TireCost | money | Y | Wholesale cost per tire. |
| TireDOT1 | string(25) | Y | Department of Transportation serial of tire 1, if available. |
| TireDOT2 to TireDOT6 | string(25) | | Serials of further tires. |
| CommercialVehicle | string(5) | | Yes or No; default No. Reads return a string such as false. |
`;

export const V2_STATUS_TABLE = `
| Field | Type / meaning |
|---|---|
| RegistrationID | int |
| PartnerID | int |
| OrgID, ShopID, InvoiceNumber | as in the registration |
| PlanEnrollDate, CreatedDate | datetime |
| TiresCovered | int, original number of tires covered |
| TireClaimCount | int, total claimed so far |
| TireCancelCount | int, total cancelled so far |
| TiresLeft | int, tires remaining on the registration |
| WarrantyStatus | int, see States and transitions |
| CancelDate, ExpireDate, StatusDate | datetime; empty when not set |
| Message | string, text of the status |
`;

export const V2_CLAIM_TABLE = `
| Field | Type | Req | Notes |
|---|---|---|---|
| OrgID | string(50) | N | |
| ShopID | string(25) | Y | Shop where the registration was sold. |
| InvoiceNumber | string(25) | Y | Invoice of the original registration sale. |
| ClaimDate | datetime | Y | |
| RepairShopID | string(25) | Y | Shop where the repair was done. |
| RepairInvoiceNumber | string(50) | Y | Invoice of the repair work. |
| VIN | string(50) | | If available. |
| VehicleMileage | int | | Mileage at repair. |
| TireClaimCount | int | Y | Tires repaired. |
| CreditAmount | money | Y | Total credited to the customer (discount amount times quantity). |
| CostPerUnit | money | Y | Replacement cost per tire at repair. |
| TireLocation1 to TireLocation6 | string(200) | | Location of each tire on the vehicle. |
| ServiceType | string | | REPLACE (tire replaced) or REPAIR (tire repaired). Present in sent and returned claims. |
| ServiceDescription | string(200) | | Classification of the damage or service. |
| TireBrand | string(25) | Y | Replacement tire brand. |
| TireModel | string(25) | | |
| TireSize | string(25) | Y | |
| TireCost | money | Y | Replacement tire price. |
`;

export const V2_SALE_TABLE = `
| Field | Type | Req | Notes |
|---|---|---|---|
| OrgID | string(50) | N | |
| ShopID | string(25) | Y | Shop that made the sale. |
| InvoiceNumber | string(25) | Y | |
| SaleDate | datetime | Y | |
| TireCount | int | Y | Tires sold. |
| TireBrand | string(25) | Y | Required for sales with and without a plan. |
| TireModel | string(25) | Y | |
| TireSize | string(25) | Y | |
| TirePrice | money | Y | What the customer pays. |
| TireCost | money | Y | What the shop pays. |
`;

export const V2_CANCELLATION_TABLE = `
| Field | Type | Req | Notes |
|---|---|---|---|
| OrgID | string(50) | N | |
| ShopID | string(25) | Y | Shop of the original sale and registration. |
| InvoiceNumber | string(25) | Y | Invoice of the original sale and registration. |
| CancelShopID | string(25) | Y | Shop where the cancellation took place. |
| CancelInvoiceNumber | string(25) | Y | Invoice at the cancelling shop. |
| TireCancelCount | int | Y | Tires cancelled. |
| CancelDate | datetime | Y | |
`;

// ------------------------------------------------------------------------------------------------
// Version 3 objects (verbatim tables)
// ------------------------------------------------------------------------------------------------

export const V3_REGISTRATION_TABLE = `
| Field | Type | Req |
|---|---|---|
| product_id | string | Y |
| invoiceNumber | string | Y |
| enrollDate | ISO 8601 date string | Y |
| customer | customer object | Y |
| tires | array of tire objects | Y |
| vehicle | vehicle object | N |
| comments | string | N |
`;

export const V3_METADATA_TABLE = `
| Field | Type |
|---|---|
| enrollDate | ISO 8601 string |
| expirationDate | ISO 8601 string |
| claimedTiresCount | integer |
| availableTiresCount | integer |
| hasTiresToClaim | boolean |
| hasTiresToReplace | boolean |
| isActive | boolean |
`;

export const V3_LIST_TABLE = `
| Field | Type |
|---|---|
| results | array of registrations |
| totalRecordCount | integer |
| page | integer |
| pageSize | integer |
| totalPages | integer |
`;

export const V3_CLAIM_TABLE = `
| Field | Type |
|---|---|
| serviceInvoiceNumber | string |
| serviceInvoiceDate | ISO 8601 string |
| vehicleMileage | number |
| damageReason | string |
| damageDescription | string |
| authorizedAmount | number |
| tires | array; each item has original (make, model, size) and replacement (make, model, size); replacement applies when the tire was replaced |
`;

export const V3_SHOP_TABLE = `
| Field | Type |
|---|---|
| product_id | string |
| placeId | string, the mapping provider's place identifier of the shop |
| uniqueId | string, unique per shop |
| legalName | string |
| startDate | ISO 8601 string |
| dba | string |
| groupName | string |
| phone | string, international format |
| address | object: line1, line2, city, state, country, zip |
| mailingAttn | string |
| mailingAddress | object: line1, line2 (optional), city, state, country, zip |
| paymentPreference | string |
| email | string |
`;

export const V3_PART_TABLE = `
| Field | Type |
|---|---|
| product_id | string |
| partNumber | string |
| make | string |
| model | string |
| size | string |
| date | ISO 8601 string |
| quantity | integer |
| cost | number |
`;

export const V3_TRANSACTION_TABLE = `
| Field | Type |
|---|---|
| product_id | string |
| make | string |
| model | string |
| size | string |
| treadDepth | number |
| date | ISO 8601 string |
| unitPrice | number |
| quantity | integer |
| isTrailer | boolean |
| partNumber | string |
| dot | string |
`;

// ------------------------------------------------------------------------------------------------
// Version 3 objects described in prose, transcribed (source sentence kept)
// ------------------------------------------------------------------------------------------------

export interface ProseTable {
  readonly source: string;
  readonly table: string;
}

export const V3_CUSTOMER: ProseTable = {
  source: 'Customer: name string Y; phone phone string N; email email string Y; address object N.',
  table: `
| Field | Type | Req |
|---|---|---|
| name | string | Y |
| phone | phone string | N |
| email | email string | Y |
| address | address object | N |
`,
};

export const V3_ADDRESS: ProseTable = {
  source: 'Address: line1 Y, line2 N, city Y, state Y, zip Y (all strings); country is also accepted in samples.',
  table: `
| Field | Type | Req |
|---|---|---|
| line1 | string | Y |
| line2 | string | N |
| city | string | Y |
| state | string | Y |
| zip | string | Y |
| country | string | N |
`,
};

export const V3_TIRE: ProseTable = {
  source: 'Tire: make Y, model Y, size Y (strings); retailPrice number Y; dot string N; partNumber string N.',
  table: `
| Field | Type | Req |
|---|---|---|
| make | string | Y |
| model | string | Y |
| size | string | Y |
| retailPrice | number | Y |
| dot | string | N |
| partNumber | string | N |
`,
};

export const V3_VEHICLE: ProseTable = {
  source:
    'Vehicle: year 4-digit number Y; make Y; model Y; vin N; plateNumber N; plateState N (strings); mileage number N.',
  table: `
| Field | Type | Req |
|---|---|---|
| year | 4-digit number | Y |
| make | string | Y |
| model | string | Y |
| vin | string | N |
| plateNumber | string | N |
| plateState | string | N |
| mileage | number | N |
`,
};

export const V3_TP_REGISTRATION: ProseTable = {
  source:
    'Properties: product_id, invoiceNumber, enrollDate, customer (name, email), vehicle (year number, make, model), tires (array of make, model, size, retailPrice). ... Required flags for this object: not shown.',
  table: `
| Field | Type |
|---|---|
| product_id | string |
| invoiceNumber | string |
| enrollDate | ISO 8601 string |
| customer | object: name, email |
| vehicle | object: year number, make, model |
| tires | array of make, model, size, retailPrice |
`,
};

export const V3_TP_CUSTOMER: ProseTable = {
  source: 'customer (name, email)',
  table: `
| Field | Type |
|---|---|
| name | string |
| email | email string |
`,
};

export const V3_TP_VEHICLE: ProseTable = {
  source: 'vehicle (year number, make, model)',
  table: `
| Field | Type |
|---|---|
| year | 4-digit number |
| make | string |
| model | string |
`,
};

export const V3_TP_TIRE: ProseTable = {
  source: 'tires (array of make, model, size, retailPrice)',
  table: `
| Field | Type |
|---|---|
| make | string |
| model | string |
| size | string |
| retailPrice | number |
`,
};

export const V3_CLAIM_TIRE_SPEC: ProseTable = {
  source: 'each item has original (make, model, size) and replacement (make, model, size)',
  table: `
| Field | Type |
|---|---|
| make | string |
| model | string |
| size | string |
`,
};

export const V3_SHOP_ADDRESS: ProseTable = {
  source: 'address | object: line1, line2, city, state, country, zip',
  table: `
| Field | Type |
|---|---|
| line1 | string |
| line2 | string |
| city | string |
| state | string |
| country | string |
| zip | string |
`,
};

export const V3_SHOP_UPDATE: ProseTable = {
  source:
    'Update body: product_id, endDate (ISO 8601); the body may also add more e-mail addresses and set a start date.',
  table: `
| Field | Type |
|---|---|
| product_id | string |
| endDate | ISO 8601 string |
| startDate | ISO 8601 string |
| email | string (one or an array: the shop create body types email as string; the field name is not shown) |
`,
};

export const V3_MOTOR_CLUB_REGISTRATION: ProseTable = {
  source:
    'Properties: product_id, invoiceNumber, enrollDate, customer (name, phone, email, address with line1, line2, city, state, zip, country).',
  table: `
| Field | Type |
|---|---|
| product_id | string |
| invoiceNumber | string |
| enrollDate | ISO 8601 string |
| customer | object: name, phone, email, address |
`,
};

export const V3_MOTOR_CLUB_CUSTOMER: ProseTable = {
  source: 'customer (name, phone, email, address with line1, line2, city, state, zip, country)',
  table: `
| Field | Type |
|---|---|
| name | string |
| phone | string |
| email | email string |
| address | object: line1, line2, city, state, zip, country |
`,
};

export const V3_MOTOR_CLUB_ADDRESS: ProseTable = {
  source: 'address with line1, line2, city, state, zip, country',
  table: `
| Field | Type |
|---|---|
| line1 | string |
| line2 | string |
| city | string |
| state | string |
| zip | string |
| country | string |
`,
};

export const V3_LOOKUP_RESULT: ProseTable = {
  source:
    'Lookup result: name, phone, line1, line2, city, state, zip, country, placeId (strings), location (type string, coordinates array of two numbers, longitude then latitude).',
  table: `
| Field | Type |
|---|---|
| name | string |
| phone | string |
| line1 | string |
| line2 | string |
| city | string |
| state | string |
| zip | string |
| country | string |
| placeId | string |
| location | object: type string, coordinates [longitude, latitude] |
`,
};

export const V3_CANCELLATION_BODY: ProseTable = {
  source: 'PATCH ... | body cancelledOn (ISO 8601, required) | 204, no body',
  table: `
| Field | Type | Req |
|---|---|---|
| cancelledOn | ISO 8601 string | Y |
`,
};

export const V3_MOTOR_CLUB_CUSTOMER_UPDATE: ProseTable = {
  source: 'PATCH | /motor-club/registrations/:id | body customer (customer object, required)',
  table: `
| Field | Type | Req |
|---|---|---|
| customer | object: name, phone, email, address | Y |
`,
};

export const V3_VERIFY_TOKEN: ProseTable = {
  source: '200 with partner_id (string) and name (string); 401 if the token is invalid',
  table: `
| Field | Type |
|---|---|
| partner_id | string |
| name | string |
`,
};

// ------------------------------------------------------------------------------------------------
// Endpoint rows (method and path of every call in the spec's Endpoints section)
// ------------------------------------------------------------------------------------------------

/** [method, path as in the spec (relative to its base), deprecated] of every endpoint row. */
export const SPEC_ENDPOINT_ROWS: readonly (readonly [string, string, boolean])[] = [
  ['GET', '/v2/partners/{company_name}', false],
  ['POST', '/v2/partners/{company_name}', false],
  ['GET', '/verify-token', false],
  ['POST', '/registrations', false],
  ['GET', '/registrations', false],
  ['GET', '/registrations/:id', false],
  ['PATCH', '/registrations/:id', false],
  ['PATCH', '/registrations?invoiceNumber=:invoiceNumber', false],
  ['POST', '/tire-protection/registrations', false],
  ['GET', '/tire-protection/registrations/:id', false],
  ['GET', '/tire-protection/registrations/:id/metadata', false],
  ['GET', '/tire-protection/registrations', false],
  ['PATCH', '/tire-protection/registrations/:id', false],
  ['PATCH', '/tire-protection/registrations?invoiceNumber=:invoiceNumber', false],
  ['POST', '/tire-protection/registrations/:id/claims', false],
  ['GET', '/tire-protection/shops/lookup', false],
  ['POST', '/tire-protection/shops', false],
  ['PATCH', '/tire-protection/shops/:uniqueId', false],
  ['POST', '/tire-protection/shops/:uniqueId/parts', false],
  ['POST', '/tire-protection/transactions', false],
  ['POST', '/motor-club/registrations', false],
  ['GET', '/motor-club/registrations/:id', false],
  ['GET', '/motor-club/registrations', false],
  ['PATCH', '/motor-club/registrations/:id', false],
  ['PATCH', '/motor-club/registrations?invoiceNumber=:invoiceNumber', false],
  ['GET', '/vehicle-lookup/{program}/rsa/eligible', true],
];

/** Every sentence of the spec that says "not shown" (verbatim), each answered in docs/contract.md. */
export const NOT_SHOWN_SENTENCES: readonly string[] = [
  'Required flags for this object: not shown.',
  'the shape of those embedded claims: not shown.',
  'Required flags for claim, shop, part, transaction and motor-club fields: not shown.',
  'Allowed values of paymentPreference: not shown.',
  'Transitions into the states No Tires left and Expired, and any other moves: not shown.',
  'Legacy POST responses (status and body): not shown.',
  'Shape of a legacy GET when several records match: not shown.',
  'Success status code of create operations that return an id: not shown.',
  'Field name used to add extra e-mail addresses to a shop in the update body: not shown.',
  'How the version 2 interface builds its token (claims and audience): not shown.',
  'Events: not shown.',
  'Body shape of errors other than 401: not shown.',
  'Error responses of the eligibility lookup: not shown.',
  'Rate limit values: not shown.',
  'Maximum pageSize and maximum number of records per POST request: not shown.',
];
