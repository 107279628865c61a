//! A symbol's data codewords (error-corrected) to its segments, its payload bytes and its
//! text: ISO/IEC 18004 §7.4 read back. Each segment is read under a charset and says how it
//! was chosen: the ECI in force names it; Kanji and Hanzi modes carry their own; where no ECI
//! is in force it is inferred as ZXing does, once for all those segments together: UTF-8 when
//! their bytes are valid UTF-8, else Shift JIS when they are valid Shift JIS (how Japanese
//! encoders write, without an ECI), else ISO-8859-1, the standard's default. Only an ECI can
//! leave a payload without text: one that names a charset its bytes are not valid in, one we
//! do not know, or 899 (binary).

use encoding_rs::Encoding;
use std::ops::Range;

/// How a segment's characters are coded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Numeric,
    Alphanumeric,
    Byte,
    Kanji,
    Hanzi,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Numeric => "numeric",
            Mode::Alphanumeric => "alphanumeric",
            Mode::Byte => "byte",
            Mode::Kanji => "kanji",
            Mode::Hanzi => "hanzi",
        }
    }
}

/// One data segment: its mode, the ECI in force (`None` before any), where its bytes lie in
/// the payload, and the charset it is read under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub mode: Mode,
    pub eci: Option<u32>,
    pub range: Range<usize>,
    pub charset: Charset,
    pub charset_from: CharsetFrom,
}

/// How a segment's charset was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharsetFrom {
    /// The ECI in force names it.
    Eci,
    /// Kanji (Shift JIS) and Hanzi (GB 2312) modes carry their own.
    Mode,
    /// No ECI is in force: guessed from the bytes, UTF-8, then Shift JIS, then ISO-8859-1.
    Inferred,
}

impl CharsetFrom {
    pub fn name(self) -> &'static str {
        match self {
            CharsetFrom::Eci => "eci",
            CharsetFrom::Mode => "mode",
            CharsetFrom::Inferred => "inferred",
        }
    }
}

/// A symbol's content.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Content {
    pub bytes: Vec<u8>,
    pub segments: Vec<Segment>,
    /// FNC1 in first position (GS1): `%` in alphanumeric segments stands for GS (0x1D).
    pub gs1: bool,
}

struct Bits<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bits<'_> {
    fn left(&self) -> usize {
        self.data.len() * 8 - self.at
    }

    fn read(&mut self, n: usize) -> Option<u32> {
        if n > self.left() {
            return None;
        }
        let mut v = 0u32;
        for _ in 0..n {
            let bit = (self.data[self.at / 8] >> (7 - self.at % 8)) & 1;
            v = (v << 1) | bit as u32;
            self.at += 1;
        }
        Some(v)
    }
}

/// Bits of the character count for `mode` in `version`.
fn count_bits(mode: Mode, version: u8) -> usize {
    let band = match version {
        1..=9 => 0,
        10..=26 => 1,
        _ => 2,
    };
    match mode {
        Mode::Numeric => [10, 12, 14][band],
        Mode::Alphanumeric => [9, 11, 13][band],
        Mode::Byte => [8, 16, 16][band],
        Mode::Kanji | Mode::Hanzi => [8, 10, 12][band],
    }
}

const ALPHANUMERIC: &[u8; 45] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:";

/// Parses the data codewords of a `version` symbol; `None` when the stream is malformed
/// (a count that runs past the data, an unknown mode, a digit group over 999).
pub fn parse(data: &[u8], version: u8) -> Option<Content> {
    let mut bits = Bits { data, at: 0 };
    let mut content = Content::default();
    let mut eci = None;
    while bits.left() >= 4 {
        let mode = match bits.read(4)? {
            0 => break,
            0b0001 => Mode::Numeric,
            0b0010 => Mode::Alphanumeric,
            0b0100 => Mode::Byte,
            0b1000 => Mode::Kanji,
            0b1101 => {
                // Hanzi: a 4-bit subset (1 = GB 2312), then the characters.
                if bits.read(4)? != 1 {
                    return None;
                }
                Mode::Hanzi
            }
            0b0111 => {
                let first = bits.read(8)?;
                eci = Some(match first {
                    f if f & 0x80 == 0 => f,
                    f if f & 0xC0 == 0x80 => ((f & 0x3F) << 8) | bits.read(8)?,
                    f if f & 0xE0 == 0xC0 => ((f & 0x1F) << 16) | bits.read(16)?,
                    _ => return None,
                });
                continue;
            }
            0b0101 => {
                content.gs1 = true;
                continue;
            }
            0b1001 => {
                bits.read(8)?; // the application indicator
                continue;
            }
            0b0011 => {
                bits.read(16)?; // structured append: index, count, parity
                continue;
            }
            _ => return None,
        };
        let count = bits.read(count_bits(mode, version))? as usize;
        let start = content.bytes.len();
        let out = &mut content.bytes;
        match mode {
            Mode::Numeric => {
                let mut left = count;
                while left > 0 {
                    let (n, width) = match left {
                        1 => (1, 4),
                        2 => (2, 7),
                        _ => (3, 10),
                    };
                    let v = bits.read(width)?;
                    if v >= [10, 100, 1000][n - 1] {
                        return None;
                    }
                    let digits = format!("{v:0n$}");
                    out.extend_from_slice(digits.as_bytes());
                    left -= n;
                }
            }
            Mode::Alphanumeric => {
                let mut left = count;
                while left > 0 {
                    if left >= 2 {
                        let v = bits.read(11)? as usize;
                        if v >= 45 * 45 {
                            return None;
                        }
                        out.extend([ALPHANUMERIC[v / 45], ALPHANUMERIC[v % 45]]);
                        left -= 2;
                    } else {
                        let v = bits.read(6)? as usize;
                        out.push(*ALPHANUMERIC.get(v)?);
                        left -= 1;
                    }
                }
                if content.gs1 {
                    gs1_percent(out, start);
                }
            }
            Mode::Byte => {
                for _ in 0..count {
                    out.push(bits.read(8)? as u8);
                }
            }
            Mode::Kanji | Mode::Hanzi => {
                for _ in 0..count {
                    let v = bits.read(13)?;
                    let (divisor, low, high) =
                        if mode == Mode::Kanji { (0xC0, 0x8140, 0xC140) } else { (0x60, 0xA1A1, 0xA6A1) };
                    let p = ((v / divisor) << 8) | (v % divisor);
                    // Kanji: Shift JIS 0x8140–0x9FFC, then 0xE040–0xEBBF; Hanzi: GB 2312
                    // 0xA1A1–0xAAFE, then 0xB0A1–0xFAFE.
                    let pair = if p < [0x1F00, 0x0A00][(mode == Mode::Hanzi) as usize] { p + low } else { p + high };
                    out.extend([(pair >> 8) as u8, pair as u8]);
                }
            }
        }
        let end = content.bytes.len();
        let (charset, charset_from) = match (mode, eci) {
            (Mode::Kanji, _) => (Charset::ShiftJis, CharsetFrom::Mode),
            (Mode::Hanzi, _) => (Charset::Gb2312, CharsetFrom::Mode),
            // Digits and letters are ASCII, read under the ECI in force like bytes.
            (_, Some(eci)) => (Charset::from_eci(eci), CharsetFrom::Eci),
            // Settled below, once every segment without an ECI is known.
            (_, None) => (Charset::Utf8, CharsetFrom::Inferred),
        };
        content.segments.push(Segment { mode, eci, range: start..end, charset, charset_from });
    }
    let unnamed = content.segments.iter().filter(|s| s.charset_from == CharsetFrom::Inferred);
    let guess = infer(unnamed.map(|s| &content.bytes[s.range.clone()]));
    for s in content.segments.iter_mut().filter(|s| s.charset_from == CharsetFrom::Inferred) {
        s.charset = guess;
    }
    Some(content)
}

/// The charset of bytes no ECI names, as ZXing guesses it: UTF-8 when they are valid UTF-8,
/// else Shift JIS when they are valid Shift JIS, else ISO-8859-1 (every byte is a character).
/// The parts are judged as one text, so a character may span them.
pub fn infer<'a>(parts: impl Iterator<Item = &'a [u8]> + Clone) -> Charset {
    let mut utf8 = encoding_rs::UTF_8.new_decoder_without_bom_handling();
    if valid(&mut utf8, parts.clone()) {
        return Charset::Utf8;
    }
    if valid(&mut encoding_rs::SHIFT_JIS.new_decoder_without_bom_handling(), parts) {
        return Charset::ShiftJis;
    }
    Charset::Latin1
}

/// Whether `parts`, fed in order to `decoder`, are one valid text in its encoding; decoded
/// into a small stack buffer, nothing kept.
fn valid<'a>(decoder: &mut encoding_rs::Decoder, parts: impl Iterator<Item = &'a [u8]>) -> bool {
    let mut out = [0u8; 1024];
    let mut parts = parts.peekable();
    while let Some(mut part) = parts.next() {
        let last = parts.peek().is_none();
        loop {
            let (result, read, _) = decoder.decode_to_utf8_without_replacement(part, &mut out, last);
            match result {
                encoding_rs::DecoderResult::Malformed(..) => return false,
                encoding_rs::DecoderResult::OutputFull => part = &part[read..],
                encoding_rs::DecoderResult::InputEmpty => break,
            }
        }
    }
    // No part at all: nothing is invalid.
    true
}

/// GS1 alphanumeric data: `%%` stands for `%`, a lone `%` for the GS separator.
fn gs1_percent(out: &mut Vec<u8>, start: usize) {
    let mut tail = out.split_off(start).into_iter().peekable();
    while let Some(b) = tail.next() {
        if b == b'%' {
            if tail.peek() == Some(&b'%') {
                tail.next();
                out.push(b'%');
            } else {
                out.push(0x1D);
            }
        } else {
            out.push(b);
        }
    }
}

/// A charset a segment is read under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charset {
    Utf8,
    Latin1,
    Ascii,
    ShiftJis,
    Gb2312,
    /// Another charset an ECI names, as `encoding_rs` decodes it, with the name ZXing gives.
    Other(&'static str, &'static Encoding),
    /// ECI 899: the bytes are not text.
    Binary,
    /// An ECI we know no charset for (reserved, or one `encoding_rs` lacks, such as CP437).
    Unknown(u32),
}

impl Charset {
    /// The charset an ECI names (ISO/IEC 18004's ECI table, as ZXing reads it).
    pub fn from_eci(eci: u32) -> Charset {
        let (name, label) = match eci {
            1 | 3 => return Charset::Latin1,
            20 => return Charset::ShiftJis,
            26 => return Charset::Utf8,
            27 | 170 => return Charset::Ascii,
            899 => return Charset::Binary,
            4 => ("ISO-8859-2", "iso-8859-2"),
            5 => ("ISO-8859-3", "iso-8859-3"),
            6 => ("ISO-8859-4", "iso-8859-4"),
            7 => ("ISO-8859-5", "iso-8859-5"),
            8 => ("ISO-8859-6", "iso-8859-6"),
            9 => ("ISO-8859-7", "iso-8859-7"),
            10 => ("ISO-8859-8", "iso-8859-8"),
            // encoding_rs reads these two as the Windows supersets, which agree on every
            // byte the ISO charsets define.
            11 => ("ISO-8859-9", "windows-1254"),
            13 => ("ISO-8859-11", "windows-874"),
            12 => ("ISO-8859-10", "iso-8859-10"),
            15 => ("ISO-8859-13", "iso-8859-13"),
            16 => ("ISO-8859-14", "iso-8859-14"),
            17 => ("ISO-8859-15", "iso-8859-15"),
            18 => ("ISO-8859-16", "iso-8859-16"),
            21 => ("windows-1250", "windows-1250"),
            22 => ("windows-1251", "windows-1251"),
            23 => ("windows-1252", "windows-1252"),
            24 => ("windows-1256", "windows-1256"),
            25 => ("UTF-16BE", "utf-16be"),
            28 => ("Big5", "big5"),
            29 => ("GB18030", "gb18030"),
            30 => ("EUC-KR", "euc-kr"),
            _ => return Charset::Unknown(eci),
        };
        match Encoding::for_label(label.as_bytes()) {
            Some(e) => Charset::Other(name, e),
            None => Charset::Unknown(eci),
        }
    }

    /// Its name as ZXing and the WHATWG encoding list spell it (`"UTF-8"`, `"Shift_JIS"`,
    /// `"ISO-8859-1"`, …); `"binary"` for ECI 899, `"ECI 13"` for one we know no charset for.
    pub fn name(self) -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed(match self {
            Charset::Utf8 => "UTF-8",
            Charset::Latin1 => "ISO-8859-1",
            Charset::Ascii => "US-ASCII",
            Charset::ShiftJis => "Shift_JIS",
            Charset::Gb2312 => "GB2312",
            Charset::Other(name, _) => name,
            Charset::Binary => "binary",
            Charset::Unknown(eci) => return std::borrow::Cow::Owned(format!("ECI {eci}")),
        })
    }

    /// Appends `bytes` read in this charset to `text`; `None` when they are not valid in it.
    fn decode(self, bytes: &[u8], text: &mut String) -> Option<()> {
        let e = match self {
            Charset::Utf8 => {
                text.push_str(std::str::from_utf8(bytes).ok()?);
                return Some(());
            }
            Charset::Latin1 => {
                text.extend(bytes.iter().map(|&b| b as char));
                return Some(());
            }
            Charset::Ascii if bytes.is_ascii() => {
                text.push_str(std::str::from_utf8(bytes).ok()?);
                return Some(());
            }
            Charset::Ascii | Charset::Binary | Charset::Unknown(_) => return None,
            Charset::ShiftJis => encoding_rs::SHIFT_JIS,
            // GB 2312 is a subset of GBK; what Hanzi mode writes is within it.
            Charset::Gb2312 => encoding_rs::GBK,
            Charset::Other(_, e) => e,
        };
        text.push_str(&e.decode_without_bom_handling_and_without_replacement(bytes)?);
        Some(())
    }
}

impl Content {
    /// The payload as text: each run of segments decoded under its charset; `None` when a
    /// run is not valid text in the charset an ECI names, or the ECI names none we know.
    pub fn text(&self) -> Option<String> {
        let mut text = String::with_capacity(self.bytes.len());
        // Runs of one charset, decoded whole so a character may span segments.
        let mut run: Option<(Charset, usize, usize)> = None;
        for s in &self.segments {
            match &mut run {
                Some((c, _, end)) if *c == s.charset && *end == s.range.start => *end = s.range.end,
                _ => {
                    if let Some((c, start, end)) = run.take() {
                        c.decode(&self.bytes[start..end], &mut text)?;
                    }
                    run = Some((s.charset, s.range.start, s.range.end));
                }
            }
        }
        if let Some((c, start, end)) = run {
            c.decode(&self.bytes[start..end], &mut text)?;
        }
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bit stream written by hand, as the standard lays it out.
    #[derive(Default)]
    struct Writer(Vec<bool>);

    impl Writer {
        fn put(mut self, value: u32, n: usize) -> Self {
            self.0.extend((0..n).rev().map(|i| value >> i & 1 == 1));
            self
        }
        fn bytes(mut self, mode: u32, count_bits: usize, data: &[u8]) -> Self {
            self = self.put(mode, 4).put(data.len() as u32, count_bits);
            for &b in data {
                self = self.put(b as u32, 8);
            }
            self
        }
        fn done(self) -> Vec<u8> {
            self.0
                .chunks(8)
                .map(|c| c.iter().enumerate().fold(0u8, |b, (i, &bit)| b | (bit as u8) << (7 - i)))
                .collect()
        }
    }

    fn modes(c: &Content) -> Vec<(Mode, Option<u32>)> {
        c.segments.iter().map(|s| (s.mode, s.eci)).collect()
    }

    #[test]
    fn numeric_alphanumeric_and_bytes_read_back_with_their_ranges() {
        // "01234567" numeric, "AC-42" alphanumeric, "hé" bytes (UTF-8), in version 1.
        let w = Writer::default().put(0b0001, 4).put(8, 10).put(12, 10).put(345, 10).put(67, 7);
        let w = w.put(0b0010, 4).put(5, 9).put(10 * 45 + 12, 11).put(41 * 45 + 4, 11).put(2, 6);
        let data = w.bytes(0b0100, 8, "hé".as_bytes()).put(0, 4).done();
        let c = parse(&data, 1).expect("well formed");
        assert_eq!(c.bytes, "01234567AC-42hé".as_bytes());
        assert_eq!(c.text().as_deref(), Some("01234567AC-42hé"));
        assert_eq!(modes(&c), [(Mode::Numeric, None), (Mode::Alphanumeric, None), (Mode::Byte, None)]);
        assert_eq!(c.segments.iter().map(|s| s.range.clone()).collect::<Vec<_>>(), [0..8, 8..13, 13..16]);
    }

    #[test]
    fn count_fields_widen_with_the_version() {
        let data = Writer::default().bytes(0b0100, 16, b"ab").done();
        assert_eq!(parse(&data, 10).expect("well formed").bytes, b"ab");
        // Read with version 9's 8-bit count, it is an empty segment, then the terminator.
        assert_eq!(parse(&data, 9).map(|c| c.bytes), Some(vec![]));
    }

    #[test]
    fn text_follows_the_eci_in_force() {
        let latin1 = Writer::default().put(0b0111, 4).put(3, 8).bytes(0b0100, 8, &[0xE9, 0x74, 0xE9]).done();
        let c = parse(&latin1, 1).expect("well formed");
        assert_eq!((c.bytes.as_slice(), c.text().as_deref()), (&[0xE9, 0x74, 0xE9][..], Some("été")));
        assert_eq!(modes(&c), [(Mode::Byte, Some(3))]);

        // UTF-8 under ECI 26, one character split across two byte segments.
        let euro = "€".as_bytes();
        let split =
            Writer::default().put(0b0111, 4).put(26, 8).bytes(0b0100, 8, &euro[..1]).bytes(0b0100, 8, &euro[1..]);
        assert_eq!(parse(&split.done(), 1).and_then(|c| c.text()).as_deref(), Some("€"));

        // Shift JIS under ECI 20; then a two-byte ECI designator (ECI 899, binary): no text.
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("日本");
        let c = parse(&Writer::default().put(0b0111, 4).put(20, 8).bytes(0b0100, 8, &sjis).done(), 1).expect("ok");
        assert_eq!(c.text().as_deref(), Some("日本"));
        let binary =
            Writer::default().put(0b0111, 4).put(0x80 | 899 >> 8, 8).put(899 & 0xFF, 8).bytes(0b0100, 8, b"ab");
        let c = parse(&binary.done(), 1).expect("well formed");
        assert_eq!((modes(&c), c.text()), (vec![(Mode::Byte, Some(899))], None));
    }

    fn charsets(c: &Content) -> Vec<(String, CharsetFrom)> {
        c.segments.iter().map(|s| (s.charset.name().into_owned(), s.charset_from)).collect()
    }

    #[test]
    fn without_an_eci_the_charset_is_inferred_utf8_then_shift_jis_then_latin1() {
        let read = |bytes: &[u8]| parse(&Writer::default().bytes(0b0100, 8, bytes).done(), 1).expect("ok");
        let c = read("Grüße".as_bytes());
        assert_eq!((c.text().as_deref(), charsets(&c)), (Some("Grüße"), vec![("UTF-8".into(), CharsetFrom::Inferred)]));
        // How Japanese encoders write: Shift JIS bytes, no ECI.
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("Google モバイル ﾃﾞｻﾞｲﾝ");
        let c = read(&sjis);
        assert_eq!(c.text().as_deref(), Some("Google モバイル ﾃﾞｻﾞｲﾝ"));
        assert_eq!(charsets(&c), [("Shift_JIS".into(), CharsetFrom::Inferred)]);
        // 0xFF is neither UTF-8 nor Shift JIS: every byte a Latin-1 character.
        let c = read(&[0xFF, 0x41, 0xE9]);
        assert_eq!(c.text().as_deref(), Some("ÿAé"));
        assert_eq!(charsets(&c), [("ISO-8859-1".into(), CharsetFrom::Inferred)]);
    }

    #[test]
    fn the_guess_spans_every_segment_without_an_eci_and_stops_at_one() {
        // A Shift JIS character split across two byte segments, digits between others.
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("日本");
        let w = Writer::default().bytes(0b0100, 8, &sjis[..1]).bytes(0b0100, 8, &sjis[1..]);
        let w = w.put(0b0001, 4).put(2, 10).put(42, 7);
        let c = parse(&w.done(), 1).expect("ok");
        assert_eq!(c.text().as_deref(), Some("日本42"));
        assert!(charsets(&c).iter().all(|(n, f)| n == "Shift_JIS" && *f == CharsetFrom::Inferred));
        // UTF-8 before an ECI, then ISO-8859-1 under ECI 3: each keeps its own.
        let w = Writer::default().bytes(0b0100, 8, "€".as_bytes()).put(0b0111, 4).put(3, 8);
        let c = parse(&w.bytes(0b0100, 8, &[0xE9]).done(), 1).expect("ok");
        assert_eq!(c.text().as_deref(), Some("€é"));
        assert_eq!(charsets(&c), [("UTF-8".into(), CharsetFrom::Inferred), ("ISO-8859-1".into(), CharsetFrom::Eci)]);
    }

    #[test]
    fn an_eci_is_never_second_guessed() {
        // UTF-8 named, bytes that are not: no text, though Latin-1 would read them.
        let w = Writer::default().put(0b0111, 4).put(26, 8).bytes(0b0100, 8, &[0xE9, 0x41]);
        let c = parse(&w.done(), 1).expect("ok");
        assert_eq!((c.text(), charsets(&c)), (None, vec![("UTF-8".into(), CharsetFrom::Eci)]));
        // An ECI we know no charset for (CP437, 2) and a reserved one: no text, named.
        for (eci, name) in [(2, "ECI 2"), (100, "ECI 100")] {
            let c = parse(&Writer::default().put(0b0111, 4).put(eci, 8).bytes(0b0100, 8, b"ab").done(), 1);
            let c = c.expect("ok");
            assert_eq!((c.text(), charsets(&c)), (None, vec![(name.into(), CharsetFrom::Eci)]));
        }
    }

    #[test]
    fn kanji_and_hanzi_read_as_their_charsets() {
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("漢字");
        let mut w = Writer::default().put(0b1000, 4).put(2, 8);
        for pair in sjis.chunks(2) {
            let p = u32::from(pair[0]) << 8 | u32::from(pair[1]);
            let v = p - if p <= 0x9FFC { 0x8140 } else { 0xC140 };
            w = w.put((v >> 8) * 0xC0 + (v & 0xFF), 13);
        }
        let c = parse(&w.done(), 1).expect("well formed");
        assert_eq!((c.bytes.as_slice(), c.text().as_deref()), (&sjis[..], Some("漢字")));

        let (gb, _, _) = encoding_rs::GBK.encode("中文");
        let mut w = Writer::default().put(0b1101, 4).put(1, 4).put(2, 8);
        for pair in gb.chunks(2) {
            let p = u32::from(pair[0]) << 8 | u32::from(pair[1]);
            let v = p - if p < 0xAAFF { 0xA1A1 } else { 0xA6A1 };
            w = w.put((v >> 8) * 0x60 + (v & 0xFF), 13);
        }
        let c = parse(&w.done(), 1).expect("well formed");
        assert_eq!((modes(&c), c.text().as_deref()), (vec![(Mode::Hanzi, None)], Some("中文")));
        assert_eq!(charsets(&c), [("GB2312".into(), CharsetFrom::Mode)]);
    }

    #[test]
    fn gs1_alphanumeric_percent_signs() {
        // FNC1 first, then "01%%A%B": %% is %, a lone % is GS.
        let v = |a: usize, b: usize| (a * 45 + b) as u32;
        let w = Writer::default().put(0b0101, 4).put(0b0010, 4).put(7, 9).put(v(0, 1), 11).put(v(38, 38), 11);
        let c = parse(&w.put(v(10, 38), 11).put(11, 6).done(), 1).expect("well formed");
        assert!(c.gs1);
        assert_eq!(c.bytes, b"01%A\x1DB");
    }

    #[test]
    fn malformed_streams_are_refused_not_misread() {
        // A count past the data; a digit group over 999; an unknown mode; a bad ECI lead byte.
        let cases = [
            Writer::default().bytes(0b0100, 8, b"abc").done()[..2].to_vec(),
            Writer::default().put(0b0001, 4).put(3, 10).put(1000, 10).done(),
            Writer::default().put(0b1111, 4).put(0, 12).done(),
            Writer::default().put(0b0111, 4).put(0xE0, 8).done(),
        ];
        for data in cases {
            assert_eq!(parse(&data, 1), None, "{data:02x?}");
        }
        // Empty data, and data that ends in a partial mode indicator, are empty content.
        assert_eq!(parse(&[], 1).map(|c| c.bytes), Some(vec![]));
        assert_eq!(parse(&[0x00], 1).map(|c| c.segments.len()), Some(0));
    }
}
