// The public types of `qr-native`: exactly what `require('qr-native')` and `import … from
// 'qr-native'` export (index.js), typed by the declarations `napi build` generates from the
// Rust sources into binding.d.ts. The binding's internal entry points (`__compat*` for
// `qr-native/compat`, the loader's `__napiBindingTarget`) are not exported, so not typed
// here; __test__/types.spec.js checks that these names and index.js's agree.
export {
  Matcher,
  concurrency,
  decode,
  decodeSync,
  encode,
  generate,
  generateMany,
  generateSync,
  isMatch,
  setConcurrency,
  setMaxQueue,
  stats,
  toDataURL,
  toString
} from './binding'
export type {
  ColorStop,
  Colors,
  CornerDotType,
  CornerSquareType,
  DataURLOptions,
  DotType,
  DecodeOptions,
  ErrorCorrectionLevel,
  FoundMatch,
  GlobOptions,
  GlobResult,
  ImageInput,
  ImagePixels,
  ImageType,
  Input,
  Kind,
  LinesOptions,
  MaskPattern,
  MatchedLine,
  MatcherConstructor,
  MatcherOptions,
  Paint,
  Pattern,
  PatternObject,
  Point,
  QrCode,
  QrGradient,
  QrLogo,
  QrMatrix,
  QrOptions,
  QrPosition,
  QrSegment,
  QrStyle,
  QueueStats,
  Replacement,
  StringOptions,
  Text,
  Version
} from './binding'

/**
 * The Unicode version of the property tables a JavaScript regex's `\p{…}` reads here
 * (`'17.0.0'`, as V8 in Node 20.20, 22 and 24). A newer Node's ICU may know code points
 * ours does not (docs/matcher.md).
 */
export declare const unicodeVersion: string
