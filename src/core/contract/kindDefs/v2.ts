import { schemas } from '../lazy';
import { KindDef, S, companyName } from './common';

/**
 * The version 2 payload kinds (spec: Version 2 record endpoints): one per array property of the POST body. Each
 * schema is built on first read.
 */
export const v2KindDefs = {
  'v2-registrations': {
    title: 'Version 2 registrations',
    description: 'POST body {Registrations: [...]} of the version 2 record interface.',
    get schema() {
      return schemas.v2Registration().V2RegistrationsBody;
    },
    endpoints: ['v2PostRecords'],
    meta: { $companyName: companyName },
    template: {
      ...S('v2-registrations'),
      Registrations: [
        {
          ShopID: 'SHOP-0001',
          InvoiceNumber: 'INV-0001',
          PlanEnrollDate: '2025-01-15',
          EmployeeID: 'EMP-01',
          CustomerID: 'CUST-0001',
          TiresCovered: 4,
          TPPPrice: 19.99,
          TireBrand: 'Michelin',
          TireSize: '225/65R17',
          TirePrice: 189.99,
          TireCost: 142.5,
          TireDOT1: 'DOT U2LL LMLR 5107',
        },
      ],
    },
  },
  'v2-claims': {
    title: 'Version 2 claims',
    description: 'POST body {Claims: [...]} of the version 2 record interface.',
    get schema() {
      return schemas.v2Claim().V2ClaimsBody;
    },
    endpoints: ['v2PostRecords'],
    meta: {
      $companyName: companyName,
      $registrationId: {
        description:
          'RegistrationID of the version 2 registration the claims are for (informational: a v2 claim names its registration by ShopID and InvoiceNumber).',
      },
    },
    template: {
      ...S('v2-claims'),
      Claims: [
        {
          ShopID: 'SHOP-0001',
          InvoiceNumber: 'INV-0001',
          ClaimDate: '2025-06-02',
          RepairShopID: 'SHOP-0001',
          RepairInvoiceNumber: 'RINV-0001',
          TireClaimCount: 1,
          CreditAmount: 94.99,
          CostPerUnit: 189.99,
          ServiceType: 'REPLACE',
          TireBrand: 'Michelin',
          TireSize: '225/65R17',
          TireCost: 189.99,
        },
      ],
    },
  },
  'v2-sales': {
    title: 'Version 2 sales',
    description: 'POST body {Sales: [...]} of the version 2 record interface.',
    get schema() {
      return schemas.v2Sale().V2SalesBody;
    },
    endpoints: ['v2PostRecords'],
    meta: { $companyName: companyName },
    template: {
      ...S('v2-sales'),
      Sales: [
        {
          ShopID: 'SHOP-0001',
          InvoiceNumber: 'INV-0002',
          SaleDate: '2025-01-15',
          TireCount: 4,
          TireBrand: 'Michelin',
          TireModel: 'Defender2',
          TireSize: '225/65R17',
          TirePrice: 189.99,
          TireCost: 142.5,
        },
      ],
    },
  },
  'v2-cancellations': {
    title: 'Version 2 cancellations (deprecated)',
    description: 'POST body {Cancellations: [...]} of the version 2 record interface (deprecated and unsupported).',
    get schema() {
      return schemas.v2Cancellation().V2CancellationsBody;
    },
    endpoints: ['v2PostRecords'],
    deprecated: true,
    meta: { $companyName: companyName },
    template: {
      ...S('v2-cancellations'),
      Cancellations: [
        {
          ShopID: 'SHOP-0001',
          InvoiceNumber: 'INV-0001',
          CancelShopID: 'SHOP-0001',
          CancelInvoiceNumber: 'CINV-0001',
          TireCancelCount: 3,
          CancelDate: '2025-02-01',
        },
      ],
    },
  },
} satisfies Record<string, KindDef>;
