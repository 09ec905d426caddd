// subset-font ships no types; the part scripts/site-fonts.ts uses.
declare module 'subset-font' {
  export default function subsetFont(
    font: Uint8Array,
    text: string,
    options?: { targetFormat?: 'sfnt' | 'woff' | 'woff2'; noLayoutClosure?: boolean },
  ): Promise<Uint8Array>
}

// fontverter (subset-font's converter) ships no types either; the test reads a WOFF2 back as TrueType.
declare module 'fontverter' {
  export function convert(font: Uint8Array, toFormat: 'sfnt' | 'woff' | 'woff2'): Promise<Uint8Array>
}
