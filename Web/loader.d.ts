// Types of blurkit/loader (Web/loader.mjs): URLs of `blurkit serve`'s /resize route.
// The option words (fit, gravity, format) are the registry's: `blurkit resize --help` and
// docs/reference/resize.md list them; a word the server does not take is answered 400.

/** Where and how URLs are made; unset fields come from BLURKIT_ORIGIN, BLURKIT_KEY, BLURKIT_EXPIRES_IN. */
export interface BlurkitSettings {
  /** The server's origin, `https://img.example.com`; empty: URLs start with `/resize/`. */
  origin?: string;
  /** The hex key of `blurkit serve --key`: server-side only. */
  key?: string;
  /** Seconds a signed URL lives (`expires=`). */
  expiresIn?: number;
  /** Default output format word (`webp`, `avif`, `png`, `jpeg`, …). */
  format?: string;
  /** Default fit word (`cover`, `contain`, `fill`, `inside`, `outside`). */
  fit?: string;
}

/** One image at one size: `src` is a path under the server's root. */
export interface BlurkitImage {
  src: string;
  /** Whole pixels, 1…16384 (before dpr). */
  width?: number;
  height?: number;
  quality?: number;
  fit?: string;
  dpr?: number;
  gravity?: string;
  format?: string;
  /** Let an image smaller than the box grow to it (`enlarge=1`); by default it keeps its size. */
  enlarge?: boolean;
}

/** Per call: the settings above, and `now` (milliseconds) for the expiry. */
export interface BlurkitURLOptions extends BlurkitSettings {
  now?: number;
}

export function configureBlurkit(options?: BlurkitSettings): void;
/** The URL of `src` resized; throws on a missing or out-of-range width and height. */
export function blurkitURL(image: BlurkitImage, options?: BlurkitURLOptions): string;
/** Next.js's custom loader. */
export function blurkitLoader(image: { src: string; width: number; quality?: number }): string;
/** `url 640w, url 1280w` for `srcset`. */
export function blurkitSrcset(src: string, widths: number[], options?: Omit<BlurkitImage, 'src' | 'width'> & BlurkitURLOptions): string;
