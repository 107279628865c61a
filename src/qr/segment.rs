//! Segments: runs of input encoded in one mode, and the choice of modes that gives the
//! shortest bit stream, made exactly as the `qrcode` npm package makes it
//! (`qrcode`'s `lib/core/segments.js`): the same runs, the same cost graph and the same shortest-path
//! tie-breaking, so that both produce identical symbols.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Encoding mode of a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Numeric,
    Alphanumeric,
    Byte,
    Kanji,
}

impl Mode {
    /// The 4-bit mode indicator.
    pub fn indicator(self) -> u32 {
        match self {
            Mode::Numeric => 1,
            Mode::Alphanumeric => 2,
            Mode::Byte => 4,
            Mode::Kanji => 8,
        }
    }

    /// Width of the character-count field in `version`.
    pub fn count_bits(self, version: u8) -> u32 {
        let column = match version {
            1..=9 => 0,
            10..=26 => 1,
            _ => 2,
        };
        let table = match self {
            Mode::Numeric => [10, 12, 14],
            Mode::Alphanumeric => [9, 11, 13],
            Mode::Byte => [8, 16, 16],
            Mode::Kanji => [8, 10, 12],
        };
        table[column]
    }

    /// Bits taken by `count` characters (bytes in byte mode) of data in this mode.
    pub fn data_bits(self, count: usize) -> usize {
        match self {
            Mode::Numeric => 10 * (count / 3) + if !count.is_multiple_of(3) { (count % 3) * 3 + 1 } else { 0 },
            Mode::Alphanumeric => 11 * (count / 2) + 6 * (count % 2),
            Mode::Byte => count * 8,
            Mode::Kanji => count * 13,
        }
    }
}

/// One segment: its mode and its data. Numeric and alphanumeric data are ASCII characters,
/// byte data is raw bytes, kanji data is UTF-8 text (turned into Shift JIS when written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment<'a> {
    pub mode: Mode,
    pub data: std::borrow::Cow<'a, [u8]>,
}

impl Segment<'_> {
    /// The value of the character-count field.
    pub fn char_count(&self) -> usize {
        match self.mode {
            Mode::Kanji => std::str::from_utf8(&self.data).map_or(0, |t| t.chars().count()),
            _ => self.data.len(),
        }
    }

    /// Bits of this segment's data, without header.
    pub fn data_bits(&self) -> usize {
        self.mode.data_bits(self.char_count())
    }
}

/// Value of an alphanumeric-mode character, or `None` outside that set.
pub fn alphanumeric_value(c: u8) -> Option<u32> {
    match c {
        b'0'..=b'9' => Some((c - b'0') as u32),
        b'A'..=b'Z' => Some((c - b'A') as u32 + 10),
        b' ' => Some(36),
        b'$' => Some(37),
        b'%' => Some(38),
        b'*' => Some(39),
        b'+' => Some(40),
        b'-' => Some(41),
        b'.' => Some(42),
        b'/' => Some(43),
        b':' => Some(44),
        _ => None,
    }
}

/// Characters `qrcode` encodes in kanji mode when given `toSJISFunc` (its `regex.js`).
pub fn is_kanji_range(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x303F | 0x3040..=0x309F | 0x30A0..=0x30FF | 0xFF00..=0xFFEF | 0x4E00..=0x9FAF
        | 0x2605..=0x2606 | 0x2190..=0x2195 | 0x203B
        | 0x2010 | 0x2015 | 0x2018 | 0x2019 | 0x2025 | 0x2026 | 0x201C | 0x201D | 0x2225 | 0x2260
        | 0x0391..=0x0451 | 0x00A7 | 0x00A8 | 0x00B1 | 0x00B4 | 0x00D7 | 0x00F7)
}

/// Shift JIS values for kanji-mode characters, as the caller's `toSJISFunc` gave them
/// (`None` where it gave no number). Present only when kanji mode is on.
#[derive(Debug, Default, Clone)]
pub struct KanjiTable(pub std::collections::HashMap<char, Option<u32>>);

impl KanjiTable {
    /// The 13-bit kanji-mode value of `c`, or `qrcode`'s error for a character outside the
    /// two Shift JIS ranges it accepts.
    pub fn value(&self, c: char) -> crate::error::Result<u32> {
        let sjis = self.0.get(&c).copied().flatten().unwrap_or(0);
        let v = match sjis {
            0x8140..=0x9FFC => sjis - 0x8140,
            0xE040..=0xEBBF => sjis - 0xC140,
            _ => {
                return Err(crate::error::Error::invalid_value(format!(
                    "Invalid SJIS character: {c}\nMake sure your charset is UTF-8"
                )))
            }
        };
        Ok(((v >> 8) & 0xFF) * 0xC0 + (v & 0xFF))
    }
}

/// The class of one character, as `qrcode`'s regular expressions split a string: digits,
/// the other alphanumeric characters, kanji (only in kanji mode), everything else. `None`
/// for the characters its kanji-mode byte expression never matches (U+2028, U+2029), which
/// `qrcode` drops from the data.
fn class_of(c: char, kanji: bool) -> Option<Mode> {
    if c.is_ascii() {
        return Some(match c as u8 {
            b'0'..=b'9' => Mode::Numeric,
            b if alphanumeric_value(b).is_some() => Mode::Alphanumeric,
            _ => Mode::Byte,
        });
    }
    if !kanji {
        Some(Mode::Byte)
    } else if is_kanji_range(c) {
        Some(Mode::Kanji)
    } else if c == '\u{2028}' || c == '\u{2029}' {
        None
    } else {
        Some(Mode::Byte)
    }
}

/// A maximal run of one class: `[start, end)` in the input's UTF-8 bytes, and its length in
/// characters (which kanji mode counts).
#[derive(Clone, Copy, Debug)]
struct Run {
    mode: Mode,
    start: usize,
    end: usize,
    chars: usize,
}

/// Splits text into maximal runs of one class. ASCII-only text takes a byte-wise path.
fn runs(text: &str, kanji: bool) -> Vec<Run> {
    // Room for a URL's runs without regrowing.
    let mut out: Vec<Run> = Vec::with_capacity(text.len().min(32));
    // A run only grows over adjacent characters, so a dropped character splits it.
    let push = |mode: Option<Mode>, i: usize, len: usize, out: &mut Vec<Run>| match (mode, out.last_mut()) {
        (Some(m), Some(run)) if run.mode == m && run.end == i => {
            run.end = i + len;
            run.chars += 1;
        }
        (Some(m), _) => out.push(Run { mode: m, start: i, end: i + len, chars: 1 }),
        (None, _) => {}
    };
    if text.is_ascii() {
        for (i, c) in text.bytes().enumerate() {
            push(class_of(c as char, kanji), i, 1, &mut out);
        }
    } else {
        for (i, c) in text.char_indices() {
            push(class_of(c, kanji), i, c.len_utf8(), &mut out);
        }
    }
    out
}

fn slice_segment(text: &[u8], mode: Mode, start: usize, end: usize) -> Segment<'_> {
    Segment { mode, data: std::borrow::Cow::Borrowed(&text[start..end]) }
}

/// A text's runs, found once for both of `qrcode`'s splits: the raw one that estimates the
/// version, then the optimal one for it.
pub struct Runs<'a> {
    bytes: &'a [u8],
    runs: Vec<Run>,
}

impl<'a> Runs<'a> {
    pub fn of(text: &'a str, kanji: bool) -> Self {
        Runs { bytes: text.as_bytes(), runs: runs(text, kanji) }
    }

    /// The unoptimised split `qrcode` uses only to estimate a version: one segment per run.
    pub fn raw(&self) -> Vec<Segment<'a>> {
        self.runs.iter().map(|r| slice_segment(self.bytes, r.mode, r.start, r.end)).collect()
    }
}

/// `Runs::raw` of `text`.
pub fn raw_split(text: &str, kanji: bool) -> Vec<Segment<'_>> {
    Runs::of(text, kanji).raw()
}

/// A node of the segment graph: one run encoded in one mode.
struct Node {
    mode: Mode,
    /// Length in the unit of `mode` (bytes for byte mode, characters otherwise).
    len: usize,
    run: usize,
    /// `qrcode`'s `lastCount`, which edge weights read and update as the graph is built.
    last_count: usize,
}

/// The sequence of segments with the shortest bit stream for `version`, chosen as `qrcode`'s
/// `Segments.fromString` chooses: a graph with one group of candidate modes per run, edge
/// weights computed in the same order (including its running `lastCount`), and Dijkstra with
/// a queue ordered by cost then insertion, as `dijkstrajs` orders it.
/// Cost: O(r log r) for r runs.
pub fn optimal_segments(text: &str, version: u8, kanji: bool) -> Vec<Segment<'_>> {
    Runs::of(text, kanji).optimal(version)
}

impl<'a> Runs<'a> {
    /// `optimal_segments` over these runs.
    pub fn optimal(&self, version: u8) -> Vec<Segment<'a>> {
        optimal(self.bytes, &self.runs, version)
    }
}

fn optimal<'a>(bytes: &'a [u8], runs: &[Run], version: u8) -> Vec<Segment<'a>> {
    if runs.is_empty() {
        return Vec::new();
    }

    // Groups of nodes: node ids are 1.. in creation order; 0 is the start, `end_id` the end.
    let mut nodes: Vec<Node> = Vec::with_capacity(runs.len() * 3);
    let mut groups: Vec<std::ops::Range<usize>> = Vec::with_capacity(runs.len());
    for (i, run) in runs.iter().enumerate() {
        let bytes_len = run.end - run.start;
        let first = nodes.len();
        let modes: &[Mode] = match run.mode {
            Mode::Numeric => &[Mode::Numeric, Mode::Alphanumeric, Mode::Byte],
            Mode::Alphanumeric => &[Mode::Alphanumeric, Mode::Byte],
            Mode::Kanji => &[Mode::Kanji, Mode::Byte],
            Mode::Byte => &[Mode::Byte],
        };
        for &mode in modes {
            // Kanji nodes count characters; every other node counts bytes (ASCII for the
            // numeric and alphanumeric runs, so characters and bytes agree there).
            let len = if mode == Mode::Kanji { run.chars } else { bytes_len };
            nodes.push(Node { mode, len, run: i, last_count: 0 });
        }
        groups.push(first..nodes.len());
    }

    // Edge weights: edges[target] lists (source, weight) with sources in the order qrcode
    // inserts them; a source's outgoing edges are visited in target order, which is the
    // order the targets were created in.
    // A group has at most three nodes, so a target has at most three sources: one array
    // each, not one vector each (this runs on every encode).
    let mut weights: Vec<[usize; 3]> = Vec::with_capacity(nodes.len());
    let header = |mode: Mode| 4 + mode.count_bits(version) as usize;
    for (g, group) in groups.iter().enumerate() {
        for target in group.clone() {
            let (mode, len) = (nodes[target].mode, nodes[target].len);
            let mut w = [usize::MAX; 3];
            if g == 0 {
                w[0] = mode.data_bits(len) + header(mode);
            } else {
                for (slot, source) in w.iter_mut().zip(groups[g - 1].clone()) {
                    let prev = &mut nodes[source];
                    if prev.mode == mode {
                        *slot = mode.data_bits(prev.last_count + len) - mode.data_bits(prev.last_count);
                        prev.last_count += len;
                    } else {
                        prev.last_count = len;
                        *slot = mode.data_bits(len) + header(mode);
                    }
                }
            }
            weights.push(w);
        }
    }

    // Dijkstra over ids: 0 = start, 1..=n = nodes, n + 1 = end.
    let n = nodes.len();
    let end_id = n + 1;
    let mut cost: Vec<Option<usize>> = vec![None; n + 2];
    let mut pred: Vec<usize> = vec![usize::MAX; n + 2];
    let mut queue = BinaryHeap::new();
    let mut seq = 0usize;
    cost[0] = Some(0);
    queue.push(Reverse((0usize, seq, 0usize)));
    let mut relax = |v: usize, c: usize, u: usize, cost: &mut Vec<Option<usize>>, queue: &mut BinaryHeap<_>| {
        if cost[v].is_none_or(|old| old > c) {
            cost[v] = Some(c);
            seq += 1;
            queue.push(Reverse((c, seq, v)));
            pred[v] = u;
        }
    };
    while let Some(Reverse((cu, _, u))) = queue.pop() {
        if u == end_id {
            continue;
        }
        // Outgoing edges of u, in target creation order.
        let next_group = if u == 0 { Some(0) } else { Some(nodes[u - 1].run + 1) };
        match next_group.filter(|&g| g < groups.len()) {
            Some(g) => {
                for target in groups[g].clone() {
                    let w = if u == 0 { weights[target][0] } else { weights[target][u - 1 - groups[g - 1].start] };
                    relax(target + 1, cu + w, u, &mut cost, &mut queue);
                }
            }
            None => relax(end_id, cu, u, &mut cost, &mut queue),
        }
    }

    // Walk back from the end, then merge neighbours of one mode into one segment.
    let mut path = Vec::with_capacity(runs.len());
    let mut v = pred[end_id];
    while v != 0 {
        path.push(v - 1);
        v = pred[v];
    }
    path.reverse();
    let mut out: Vec<Segment> = Vec::new();
    let mut last_end = usize::MAX;
    for id in path {
        let node = &nodes[id];
        let run = runs[node.run];
        match out.last_mut() {
            Some(last) if last.mode == node.mode => {
                if last_end == run.start {
                    if let std::borrow::Cow::Borrowed(b) = last.data {
                        let start = b.as_ptr() as usize - bytes.as_ptr() as usize;
                        last.data = std::borrow::Cow::Borrowed(&bytes[start..run.end]);
                    } else {
                        last.data.to_mut().extend_from_slice(&bytes[run.start..run.end]);
                    }
                } else {
                    // A dropped character (kanji mode's U+2028/U+2029) lies between.
                    last.data.to_mut().extend_from_slice(&bytes[run.start..run.end]);
                }
            }
            _ => out.push(slice_segment(bytes, node.mode, run.start, run.end)),
        }
        last_end = run.end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modes(text: &str, version: u8) -> Vec<(Mode, String)> {
        optimal_segments(text, version, false)
            .into_iter()
            .map(|s| (s.mode, String::from_utf8(s.data.into_owned()).unwrap()))
            .collect()
    }

    #[test]
    fn digits_alone_stay_numeric() {
        assert_eq!(modes("0123456789", 1), vec![(Mode::Numeric, "0123456789".into())]);
    }

    #[test]
    fn short_runs_are_absorbed_into_byte_mode() {
        assert_eq!(modes("https://a.com/1", 1), vec![(Mode::Byte, "https://a.com/1".into())]);
    }

    #[test]
    fn a_long_digit_run_inside_text_gets_its_own_segment() {
        let got = modes("id=123456789012345678901234567890", 1);
        assert_eq!(got[0], (Mode::Byte, "id=".into()));
        assert_eq!(got[1].0, Mode::Numeric);
    }

    #[test]
    fn raw_split_keeps_every_run() {
        let got: Vec<Mode> = raw_split("ab12CD", false).into_iter().map(|s| s.mode).collect();
        assert_eq!(got, vec![Mode::Byte, Mode::Numeric, Mode::Alphanumeric]);
    }

    #[test]
    fn kanji_mode_gives_kanji_runs_their_own_segment() {
        let got: Vec<(Mode, String)> = optimal_segments("abc漢字漢字漢字漢字", 1, true)
            .into_iter()
            .map(|s| (s.mode, String::from_utf8(s.data.into_owned()).unwrap()))
            .collect();
        assert_eq!(got, vec![(Mode::Byte, "abc".into()), (Mode::Kanji, "漢字漢字漢字漢字".into())]);
    }

    #[test]
    fn kanji_mode_drops_line_and_paragraph_separators_as_qrcode_does() {
        let got = optimal_segments("ab\u{2028}cd", 1, true);
        assert_eq!(got.len(), 1);
        assert_eq!(&*got[0].data, b"abcd");
    }

    #[test]
    fn kanji_values_follow_the_shift_jis_ranges() {
        let mut table = KanjiTable::default();
        table.0.insert('点', Some(0x935F));
        table.0.insert('x', Some(0x1234));
        // ISO/IEC 18004 example: 点 (0x935F) encodes as 0xD9F.
        assert_eq!(table.value('点').unwrap(), 0xD9F);
        assert!(table.value('x').is_err());
        assert!(table.value('y').is_err());
    }
}
