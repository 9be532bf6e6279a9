import { schemas } from '../lazy';
import { KindDef, S, invoiceNumber, registrationId, storeNumber, uniqueId } from './common';

/**
 * The version 3 payload kinds (spec: Version 3 objects; Endpoints): every body of a v3 POST or PATCH. Each
 * schema is built on first read.
 */
export const v3KindDefs = {
  registration: {
    title: 'Registration (earlier revision)',
    description: 'Registration of the earlier revision.',
    get schema() {
      return schemas.registration().Registration;
    },
    endpoints: ['createRegistration'],
    meta: {},
    template: {
      ...S('registration'),
      product_id: 'PRODUCT-ID',
      invoiceNumber: 'INV-0001',
      enrollDate: '2025-01-15',
      customer: { name: 'Jane Doe', email: 'jane.doe@example.com' },
      tires: [{ make: 'Michelin', model: 'Defender2', size: '225/65R17', retailPrice: 189.99 }],
    },
  },
  'tire-protection-registration': {
    title: 'Tire-protection registration',
    description: 'Tire-protection registration.',
    get schema() {
      return schemas.tireProtection().TireProtectionRegistration;
    },
    endpoints: ['createTireProtectionRegistration'],
    meta: {},
    template: {
      ...S('tire-protection-registration'),
      product_id: 'PRODUCT-ID',
      invoiceNumber: 'INV-0001',
      enrollDate: '2025-01-15',
      customer: { name: 'Jane Doe', email: 'jane.doe@example.com' },
      vehicle: { year: 2021, make: 'Toyota', model: 'RAV4' },
      tires: [{ make: 'Michelin', model: 'Defender2', size: '225/65R17', retailPrice: 189.99 }],
    },
  },
  'tire-protection-claim': {
    title: 'Tire-protection claim',
    description: 'Claim against a tire-protection registration ($registrationId).',
    get schema() {
      return schemas.claim().TireProtectionClaim;
    },
    endpoints: ['createTireProtectionClaim'],
    meta: { $registrationId: { ...registrationId, required: true } },
    template: {
      ...S('tire-protection-claim'),
      $registrationId: 'REGISTRATION-ID',
      serviceInvoiceNumber: 'SRV-0001',
      serviceInvoiceDate: '2025-06-02',
      vehicleMileage: 18250,
      damageReason: 'Road hazard',
      damageDescription: 'Sidewall puncture, not repairable',
      authorizedAmount: 189.99,
      tires: [
        {
          original: { make: 'Michelin', model: 'Defender2', size: '225/65R17' },
          replacement: { make: 'Michelin', model: 'Defender2', size: '225/65R17' },
        },
      ],
    },
  },
  shop: {
    title: 'Shop',
    description: 'Shop create body.',
    get schema() {
      return schemas.shop().Shop;
    },
    endpoints: ['createShop'],
    meta: {},
    template: {
      ...S('shop'),
      product_id: 'PRODUCT-ID',
      uniqueId: 'SHOP-0001',
      legalName: 'Example Tire Co. LLC',
      startDate: '2025-01-01',
      phone: '+1 555 010 0199',
      email: 'service@example.com',
    },
  },
  'shop-update': {
    title: 'Shop update',
    description: 'Shop update body for the shop $uniqueId.',
    get schema() {
      return schemas.shopUpdate().ShopUpdate;
    },
    endpoints: ['updateShop'],
    meta: { $uniqueId: uniqueId },
    template: { ...S('shop-update'), $uniqueId: 'SHOP-0001', product_id: 'PRODUCT-ID', endDate: '2025-12-31' },
  },
  part: {
    title: 'Part sold to a shop',
    description: 'Part sold to the shop $uniqueId.',
    get schema() {
      return schemas.part().Part;
    },
    endpoints: ['addShopPart'],
    meta: { $uniqueId: uniqueId },
    template: {
      ...S('part'),
      $uniqueId: 'SHOP-0001',
      product_id: 'PRODUCT-ID',
      partNumber: 'PN-0001',
      make: 'Michelin',
      model: 'Defender2',
      size: '225/65R17',
      date: '2025-01-15',
      quantity: 4,
      cost: 142.5,
    },
  },
  transaction: {
    title: 'Transaction',
    description: 'Sale of tires from a manufacturer to a dealer.',
    get schema() {
      return schemas.transaction().Transaction;
    },
    endpoints: ['createTransaction'],
    meta: {},
    template: {
      ...S('transaction'),
      product_id: 'PRODUCT-ID',
      make: 'Michelin',
      model: 'Defender2',
      size: '225/65R17',
      treadDepth: 10,
      date: '2025-01-15',
      unitPrice: 142.5,
      quantity: 4,
      isTrailer: false,
      partNumber: 'PN-0001',
      dot: 'DOT U2LL LMLR 5107',
    },
  },
  'motor-club-registration': {
    title: 'Motor-club registration',
    description: 'Motor-club registration (consumer information only).',
    get schema() {
      return schemas.motorClub().MotorClubRegistration;
    },
    endpoints: ['createMotorClubRegistration'],
    meta: {},
    template: {
      ...S('motor-club-registration'),
      product_id: 'PRODUCT-ID',
      invoiceNumber: 'INV-0001',
      enrollDate: '2025-01-15',
      customer: { name: 'Jane Doe', phone: '+1 555 010 0123', email: 'jane.doe@example.com' },
    },
  },
  'motor-club-customer': {
    title: 'Motor-club customer update',
    description: 'Replaces the customer of a motor-club registration ($registrationId or $invoiceNumber).',
    get schema() {
      return schemas.motorClubCustomerUpdate().MotorClubCustomerUpdate;
    },
    endpoints: ['updateMotorClubCustomer', 'updateMotorClubCustomerByInvoice'],
    meta: { $registrationId: registrationId, $invoiceNumber: invoiceNumber },
    template: {
      ...S('motor-club-customer'),
      $registrationId: 'REGISTRATION-ID',
      customer: { name: 'Jane Doe', phone: '+1 555 010 0123', email: 'jane.doe@example.com' },
    },
  },
  cancellation: {
    title: 'Cancellation',
    description:
      'Cancels a registration ({cancelledOn}); $registrationId or $invoiceNumber picks the registration, $product the path.',
    get schema() {
      return schemas.cancellation().CancellationBody;
    },
    endpoints: [
      'cancelTireProtectionRegistration',
      'cancelTireProtectionRegistrationByInvoice',
      'cancelMotorClubRegistration',
      'cancelMotorClubRegistrationByInvoice',
      'cancelRegistration',
      'cancelRegistrationByInvoice',
    ],
    meta: {
      $registrationId: registrationId,
      $invoiceNumber: invoiceNumber,
      $storeNumber: storeNumber,
      $product: {
        description:
          "Which registrations to cancel in: 'tire-protection' (default), 'motor-club', or 'registrations' (earlier revision).",
      },
    },
    template: { ...S('cancellation'), $registrationId: 'REGISTRATION-ID', cancelledOn: '2025-02-01T10:00:00Z' },
  },
} satisfies Record<string, KindDef>;
