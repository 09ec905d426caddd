/**
 * VAT in integer halalas: round half up of price × rate. The rate is in basis points
 * (15% = 1500) so nothing here ever touches a float.
 */
export function vatOf(priceHalalas: number, rateBasisPoints: number): number {
  if (!Number.isSafeInteger(priceHalalas) || priceHalalas < 0) throw new RangeError('price must be a non-negative integer of halalas')
  if (!Number.isSafeInteger(rateBasisPoints) || rateBasisPoints < 0)
    throw new RangeError('rate must be a non-negative integer of basis points')
  return Math.floor((priceHalalas * rateBasisPoints + 5_000) / 10_000)
}

export type PriceBreakdown = { price: number; vatRate: number; vat: number; total: number }

/** Price excluding VAT, the VAT rate as a percentage, the VAT and the total, all in halalas. */
export function priceBreakdown(priceHalalas: number, rateBasisPoints: number): PriceBreakdown {
  const vat = vatOf(priceHalalas, rateBasisPoints)
  return { price: priceHalalas, vatRate: rateBasisPoints / 100, vat, total: priceHalalas + vat }
}
