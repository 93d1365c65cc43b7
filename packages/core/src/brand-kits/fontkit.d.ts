// fontkit 2 ships no type declarations; only what verify-font.ts reads is declared.
declare module 'fontkit' {
  export interface Font {
    numGlyphs: number;
    familyName: string | null;
  }
  export interface FontCollection {
    fonts: Font[];
  }
  export function create(buffer: Buffer, postscriptName?: string): Font | FontCollection;
}
