import { z } from 'zod';

/** The shop lookup's result (GET /tire-protection/shops/lookup; spec: Endpoints); its query is in endpointRows/shops.ts. */

/** location of a shop lookup result: coordinates are [longitude, latitude]. */
export const GeoLocation = z.looseObject({
  type: z.string().optional().meta({ description: 'Geometry type, e.g. Point.' }),
  coordinates: z
    .tuple([z.number(), z.number()])
    .optional()
    .meta({ description: 'Two numbers: longitude, then latitude.' }),
});

/** Shop lookup result (GET /tire-protection/shops/lookup). */
export const ShopLookupResult = z.looseObject({
  name: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  line1: z.string().nullable().optional(),
  line2: z.string().nullable().optional(),
  city: z.string().nullable().optional(),
  state: z.string().nullable().optional(),
  zip: z.string().nullable().optional(),
  country: z.string().nullable().optional(),
  placeId: z.string().nullable().optional().meta({ description: "The mapping provider's place identifier." }),
  location: GeoLocation.nullable().optional().meta({ description: 'type, and coordinates [longitude, latitude].' }),
});

export type ShopLookupResult = z.infer<typeof ShopLookupResult>;
