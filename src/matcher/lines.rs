//! Matching every line of a large buffer without splitting it into strings, and the chunks
//! of a `lines()` stream: what one chunk picks, in the wire format `lib/lines.js` reads, and
//! the buffers chunks are copied into.

use super::Matcher;
use crate::error::Result;

/// Bytes scanned between two checks of the caller's abort flag.
const CHECK_EVERY: usize = 1 << 20;

/// Most bytes of lines without a literal counted at once.
const SKIP_AT_MOST: usize = 16 * CHECK_EVERY;

/// Where the matcher's line filter next finds one of its literals, searched again only once a
/// line has passed it: a line without one cannot match, and is not tested.
struct Hits<'a> {
    filter: Option<&'a aho_corasick::AhoCorasick>,
    data: &'a [u8],
    /// The next hit at or after the last search's start (`usize::MAX`: none).
    next: Option<usize>,
}

impl Hits<'_> {
    /// Whether a literal starts in `start..end` (always, without a filter).
    fn within(&mut self, start: usize, end: usize) -> bool {
        self.filter.is_none() || self.next_from(start) < end
    }

    /// Where the next literal at or after `start` starts (`usize::MAX`: none, or no filter).
    fn next_from(&mut self, start: usize) -> usize {
        let Some(ac) = self.filter else { return usize::MAX };
        if self.next.is_none_or(|h| h < start) {
            let found = ac.find(aho_corasick::Input::new(self.data).range(start..));
            self.next = Some(found.map_or(usize::MAX, |m| m.start()));
        }
        self.next.unwrap_or(usize::MAX)
    }

    /// Where the lines that hold no literal, from the line that starts at `start`, end: the
    /// start of the line the next literal is on, or just after the last `\n` when none is.
    /// `start` itself when there is no filter (every line may match).
    fn skip_from(&mut self, start: usize) -> usize {
        if self.filter.is_none() {
            return start;
        }
        // At most a few checks of the abort flag apart.
        let before = self.next_from(start).min(self.data.len()).min(start.saturating_add(SKIP_AT_MOST));
        memchr::memrchr(b'\n', &self.data[start..before]).map_or(start, |i| start + i + 1)
    }
}

/// The lines of `data[start..end]` (`end` just after a `\n`): how many there are up to the
/// first longer than `max_line` bytes (without its `\n`), and where that one starts. Counted,
/// not split: a window of `max_line + 1` bytes from a line's start holds its `\n`, so the last
/// `\n` in that window ends only lines within the limit; each byte is looked at about twice.
fn count_lines(data: &[u8], mut start: usize, end: usize, max_line: usize) -> (u32, Option<usize>) {
    let mut lines = 0usize;
    while end - start > max_line.saturating_add(1) {
        match memchr::memrchr(b'\n', &data[start..start + max_line + 1]) {
            Some(i) => {
                lines += memchr::memchr_iter(b'\n', &data[start..=start + i]).count();
                start += i + 1;
            }
            None => return (lines as u32, Some(start)),
        }
    }
    lines += memchr::memchr_iter(b'\n', &data[start..end]).count();
    (lines as u32, None)
}

/// 0-based numbers of the lines of `data` (split at `\n`, a trailing `\r` removed) on which
/// any pattern matches. `aborted` is polled about every MiB; its error is returned.
/// Cost: linear in `data`, with no copy of it.
pub fn scan_lines(matcher: &Matcher, data: &[u8], aborted: &dyn Fn() -> Result<()>) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut next_check = CHECK_EVERY;
    let mut line = 0u32;
    let mut hits = Hits { filter: matcher.line_filter(data), data, next: None };
    while start <= data.len() {
        // The lines before the next literal's cannot match: counted, not split.
        let skip = hits.skip_from(start);
        if skip > start {
            line = line.wrapping_add(count_lines(data, start, skip, usize::MAX).0);
            start = skip;
            if start >= next_check {
                aborted()?;
                next_check = start + CHECK_EVERY;
            }
        }
        let end = memchr::memchr(b'\n', &data[start..]).map_or(data.len(), |i| start + i);
        let mut body = &data[start..end];
        if let [rest @ .., b'\r'] = body {
            body = rest;
        }
        // A final empty line (the text ended with '\n') is not a line.
        let is_line = end < data.len() || !body.is_empty() || start < end;
        if is_line && hits.within(start, start + body.len()) && matcher.test(body) {
            out.push(line);
        }
        if end >= next_check {
            aborted()?;
            next_check = end + CHECK_EVERY;
        }
        if end == data.len() {
            break;
        }
        start = end + 1;
        line = line.wrapping_add(1);
    }
    Ok(out)
}

/// Which lines `select_lines` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Those on which a pattern matches.
    Matching,
    /// Those on which none does.
    Other,
    /// Every line, each with whether a pattern matches on it.
    All,
}

/// What `select_lines` found in one chunk of a stream.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Selected {
    /// Bytes read: every complete line's (the rest is the start of a line the next chunk
    /// goes on with), or all of them for the stream's last chunk.
    pub consumed: usize,
    /// Lines read (counted from 0 in this chunk).
    pub lines: u32,
    /// (line, start, end, matches) of each line picked; start and end exclude `\n` and `\r\n`.
    pub picked: Vec<(u32, u32, u32, bool)>,
    /// The first line (counted from 0 in this chunk) longer than the limit; nothing from it on
    /// was read.
    pub too_long: Option<u32>,
}

/// The lines of one chunk of a byte stream, split as `scan_lines` splits (`\n`, a `\r`
/// before it removed): those `pick` says, with their bounds. A line longer than `max_line`
/// bytes (with its `\r`) stops the chunk there; so does the unfinished line at the end of a
/// chunk that is not `last` (it is what the caller carries into the next one), once it is
/// longer than that. `data` must be under 4 GiB. Cost: linear in `data`.
pub fn select_lines(
    matcher: &Matcher,
    data: &[u8],
    last: bool,
    pick: Pick,
    max_line: usize,
    aborted: &dyn Fn() -> Result<()>,
) -> Result<Selected> {
    let mut out = Selected::default();
    let mut start = 0;
    let mut next_check = CHECK_EVERY;
    let mut hits = Hits { filter: matcher.line_filter(data), data, next: None };
    while start < data.len() {
        if pick == Pick::Matching {
            // The lines before the next literal's cannot match: counted, not split, up to a
            // line past the limit, which the step below then refuses.
            let skip = hits.skip_from(start);
            if skip > start {
                let (lines, long) = count_lines(data, start, skip, max_line);
                out.lines += lines;
                start = long.unwrap_or(skip);
                if start >= next_check {
                    aborted()?;
                    next_check = start + CHECK_EVERY;
                }
                if start >= data.len() {
                    break;
                }
            }
        }
        let newline = memchr::memchr(b'\n', &data[start..]).map(|i| start + i);
        let end = newline.unwrap_or(data.len());
        if end - start > max_line {
            out.too_long = Some(out.lines);
            break;
        }
        if newline.is_none() && !last {
            break; // the unfinished line: the caller carries it on
        }
        let mut body_end = end;
        if body_end > start && data[body_end - 1] == b'\r' {
            body_end -= 1;
        }
        // Only a line that holds one of the filter's literals can match (see
        // `Matcher::line_filter`); the next one is looked for once the last is passed.
        let matches = hits.within(start, body_end) && matcher.test(&data[start..body_end]);
        let picked = match pick {
            Pick::Matching => matches,
            Pick::Other => !matches,
            Pick::All => true,
        };
        if picked {
            out.picked.push((out.lines, start as u32, body_end as u32, matches));
        }
        out.lines += 1;
        start = end + 1;
        if end >= next_check {
            aborted()?;
            next_check = end + CHECK_EVERY;
        }
    }
    out.consumed = start.min(data.len());
    Ok(out)
}

impl Selected {
    /// The wire format `lib/lines.js` reads: (consumed, lines, too long or `u32::MAX`), then
    /// (line, start, end, matches as 0 or 1) for each line picked, flat.
    pub fn to_wire(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(3 + 4 * self.picked.len());
        out.extend([self.consumed as u32, self.lines, self.too_long.unwrap_or(u32::MAX)]);
        for &(line, start, end, matches) in &self.picked {
            out.extend([line, start, end, matches as u32]);
        }
        out
    }
}

// The chunks of a `lines()` stream, in memory of our own: the binding copies each chunk
// (with the unfinished line before it) into a buffer from here on the JavaScript thread, and
// gives the buffer back once the lines it picked went out as a copy of their own.

thread_local! {
    /// Chunk copies of `lines()` streams whose lines went out as copies of their own, kept
    /// for the next chunks of this thread: a fresh megabyte costs its page faults each time,
    /// about as much as the copy into it. A few, of bounded size (`SPARE_*`).
    static SPARE_CHUNKS: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Most chunk copies kept (`SPARE_CHUNKS`): one a chunk in flight (`lib/lines.js`) and one more.
const SPARE_MOST: usize = 3;
/// Largest chunk copy kept.
const SPARE_BYTES: usize = 4 << 20;

/// An empty buffer for a chunk of `len` bytes, a kept one when it is large enough.
pub fn spare_chunk(len: usize) -> Vec<u8> {
    let kept = SPARE_CHUNKS
        .with_borrow_mut(|spare| spare.iter().position(|v| v.capacity() >= len).map(|i| spare.swap_remove(i)));
    kept.unwrap_or_else(|| Vec::with_capacity(len))
}

/// Keeps `chunk` for a later `spare_chunk`, if it is not too large and too many are not kept.
pub fn keep_chunk(mut chunk: Vec<u8>) {
    chunk.clear();
    SPARE_CHUNKS.with_borrow_mut(|spare| {
        if chunk.capacity() <= SPARE_BYTES && spare.len() < SPARE_MOST {
            spare.push(chunk);
        }
    });
}

/// The lines `list` (`Selected::to_wire`) picks (from its fourth entry, (line, start, end, matches) each) copied out
/// of `data` into a buffer of their own, `list`'s offsets moved to point into it; `None` when
/// they hold over a quarter of `data`'s bytes, where handing `data` itself over is cheaper.
pub fn picked_copy(data: &[u8], list: &mut [u32]) -> Option<Vec<u8>> {
    let picked = || list[3..].chunks_exact(4).map(|p| (p[1] as usize, p[2] as usize));
    let bytes: usize = picked().map(|(start, end)| end - start).sum();
    if bytes > data.len() / 4 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes);
    for p in list[3..].chunks_exact_mut(4) {
        let at = out.len() as u32;
        out.extend_from_slice(&data[p[1] as usize..p[2] as usize]);
        p[2] = at + (p[2] - p[1]);
        p[1] = at;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matcher::{Kind, PatternSpec};

    #[test]
    fn lines_split_at_newlines_and_crlf() {
        let m = Matcher::new(&[PatternSpec {
            pattern: "bot$".into(),
            kind: Kind::Regex,
            case_insensitive: false,
            syntax: crate::matcher::Syntax::Js,
            glob: None,
        }])
        .unwrap();
        let data = b"a bot\r\nhuman\nbot\n";
        assert_eq!(scan_lines(&m, data, &|| Ok(())).unwrap(), vec![0, 2]);
        assert_eq!(scan_lines(&m, b"", &|| Ok(())).unwrap(), Vec::<u32>::new());
    }

    fn bot() -> Matcher {
        Matcher::new(&[PatternSpec {
            pattern: "bot".into(),
            kind: Kind::Contains,
            case_insensitive: false,
            syntax: crate::matcher::Syntax::Js,
            glob: None,
        }])
        .unwrap()
    }

    #[test]
    fn a_chunk_gives_its_complete_lines_and_leaves_the_unfinished_one() {
        let m = bot();
        let none = &|| Ok(());
        let s = select_lines(&m, b"a bot\r\nhuman\nbot tail", false, Pick::Matching, 100, none).unwrap();
        assert_eq!(s, Selected { consumed: 13, lines: 2, picked: vec![(0, 0, 5, true)], too_long: None });
        // The stream's last chunk: its unfinished line is a line.
        let s = select_lines(&m, b"bot tail", true, Pick::Other, 100, none).unwrap();
        assert_eq!(s, Selected { consumed: 8, lines: 1, picked: vec![], too_long: None });
        let s = select_lines(&m, b"x\n\nbot\n", true, Pick::All, 100, none).unwrap();
        assert_eq!(s.picked, vec![(0, 0, 1, false), (1, 2, 2, false), (2, 3, 6, true)]);
        // Lines agree with scan_lines, whatever the chunks.
        let data = b"bot\r\n\nxbot\n\r\nb\not\nbot";
        let whole: Vec<u32> = scan_lines(&m, data, none).unwrap();
        for cut in 0..data.len() {
            let a = select_lines(&m, &data[..cut], false, Pick::Matching, 100, none).unwrap();
            let rest = [&data[a.consumed..cut], &data[cut..]].concat();
            let b = select_lines(&m, &rest, true, Pick::Matching, 100, none).unwrap();
            let lines: Vec<u32> = a.picked.iter().map(|p| p.0).chain(b.picked.iter().map(|p| p.0 + a.lines)).collect();
            assert_eq!(lines, whole, "cut at {cut}");
        }
    }

    #[test]
    fn a_line_past_the_limit_stops_the_chunk_before_it() {
        let m = bot();
        let none = &|| Ok(());
        let s = select_lines(&m, b"bot\n12345678\nbot\n", false, Pick::Matching, 7, none).unwrap();
        assert_eq!(s, Selected { consumed: 4, lines: 1, picked: vec![(0, 0, 3, true)], too_long: Some(1) });
        // An unfinished line past the limit is refused before its end comes.
        let s = select_lines(&m, b"bot\n12345678", false, Pick::Matching, 7, none).unwrap();
        assert_eq!(s.too_long, Some(1));
        // At the limit, with its `\r`, it is read.
        let s = select_lines(&m, b"123456\r\n", false, Pick::Other, 7, none).unwrap();
        assert_eq!((s.lines, s.too_long), (1, None));
    }

    #[test]
    fn lines_without_a_literal_counted_in_bulk_give_what_splitting_them_gives() {
        // Lines of every shape near the limit, in many orders: picking the matching lines
        // (which skips those before the next literal) against picking all and keeping the
        // matching ones (which splits every line), for every limit and both chunk kinds.
        let m = bot();
        let none = &|| Ok(());
        let shapes: [&[u8]; 10] =
            [b"", b"bot", b"x bot x", b"\r", b"bo", b"t", b"ab\r", b"0123456789", b"012345678bot", b"bo\rt"];
        for seed in 0..60usize {
            let mut data = Vec::new();
            for k in 0..(seed % 23) {
                data.extend_from_slice(shapes[(k * (2 * seed + 1) + seed * seed) % shapes.len()]);
                if (k + seed) % 11 != 10 {
                    data.push(b'\n');
                }
            }
            for max_line in (1..=14).chain([usize::MAX >> 1]) {
                for last in [false, true] {
                    let all = select_lines(&m, &data, last, Pick::All, max_line, none).unwrap();
                    let matching = select_lines(&m, &data, last, Pick::Matching, max_line, none).unwrap();
                    let kept: Vec<_> = all.picked.iter().copied().filter(|p| p.3).collect();
                    let (s, d) = (String::from_utf8_lossy(&data), max_line);
                    assert_eq!(matching.picked, kept, "{s:?} max_line {d} last {last}");
                    let counts = (matching.consumed, matching.lines, matching.too_long);
                    assert_eq!(counts, (all.consumed, all.lines, all.too_long), "{s:?} max_line {d} last {last}");
                }
            }
            let whole: Vec<u32> = select_lines(&m, &data, true, Pick::All, usize::MAX >> 1, none)
                .unwrap()
                .picked
                .iter()
                .filter(|p| p.3)
                .map(|p| p.0)
                .collect();
            assert_eq!(scan_lines(&m, &data, none).unwrap(), whole);
        }
        // The count itself: where the first line past the limit starts, and the lines before it.
        assert_eq!(count_lines(b"ab\nabc\nabcd\n", 0, 12, 3), (2, Some(7)));
        assert_eq!(count_lines(b"ab\nabc\nabcd\n", 0, 12, 4), (3, None));
        assert_eq!(count_lines(b"ab\nabc\nabcd\n", 3, 7, 0), (0, Some(3)));
    }

    #[test]
    fn the_filter_looks_for_each_literal_from_its_rarest_pair_and_skips_no_matching_line() {
        let tails = |lits: &[&str], sample: &[u8]| {
            let lits = lits.iter().map(|l| l.as_bytes().to_vec()).collect();
            crate::matcher::rare_tails(lits, sample)
                .into_iter()
                .map(|t| String::from_utf8(t).unwrap())
                .collect::<Vec<_>>()
        };
        let log: Vec<u8> = (0..2000)
            .flat_map(|i| format!("{{\"status\":{},\"ua\":\"bot{i}\"}}\n", 200 + i % 3).into_bytes())
            .collect();
        assert_eq!(tails(&["\"status\":500", "ab", "abc", "xbot"], &log), [":500", "ab", "abc", "xbot"]);
        // Nothing sampled: every literal whole; parts that repeat are looked for once.
        assert_eq!(tails(&["\"status\":500", "Curl/", "curl/"], b""), ["\"status\":500", "Curl/", "curl/"]);
        assert_eq!(tails(&["Curl/", "curl/"], b"Cu cu ur Cu cu ur"), ["rl/"]);
        // Lines that hold the part and not the literal are tested and left; the matching
        // lines are what splitting every line gives.
        let m = Matcher::new(&[PatternSpec {
            pattern: "\"status\":500".into(),
            kind: Kind::Contains,
            case_insensitive: false,
            syntax: crate::matcher::Syntax::Js,
            glob: None,
        }])
        .unwrap();
        let mut data = log.clone();
        data.extend_from_slice(b"{\"t\":500}\n{\"status\":500}\n:500\n\"status\"\n{\"status\":500,\"x\":500}");
        let none = &|| Ok(());
        let all = select_lines(&m, &data, true, Pick::All, 1 << 20, none).unwrap();
        let kept: Vec<_> = all.picked.iter().copied().filter(|p| p.3).map(|p| p.0).collect();
        assert_eq!(kept, [2001, 2004]);
        assert_eq!(scan_lines(&m, &data, none).unwrap(), kept);
        let matching = select_lines(&m, &data, true, Pick::Matching, 1 << 20, none).unwrap();
        assert_eq!(matching.picked.iter().map(|p| p.0).collect::<Vec<_>>(), kept);
    }

    #[test]
    fn an_abort_stops_the_scan() {
        let m = Matcher::new(&[PatternSpec {
            pattern: "x".into(),
            kind: Kind::Contains,
            case_insensitive: false,
            syntax: crate::matcher::Syntax::Js,
            glob: None,
        }])
        .unwrap();
        let data = vec![b'\n'; 3 << 20];
        let err = scan_lines(&m, &data, &|| Err(crate::error::Error::aborted())).unwrap_err();
        assert_eq!(err.kind, crate::error::ErrorKind::Aborted);
    }

    #[test]
    fn the_wire_format_is_three_counts_then_four_numbers_a_line() {
        let s = Selected { consumed: 10, lines: 3, picked: vec![(0, 0, 2, true), (2, 6, 9, false)], too_long: None };
        assert_eq!(s.to_wire(), vec![10, 3, u32::MAX, 0, 0, 2, 1, 2, 6, 9, 0]);
        let s = Selected { too_long: Some(1), ..Default::default() };
        assert_eq!(s.to_wire(), vec![0, 0, 1]);
    }

    #[test]
    fn picked_lines_are_copied_out_only_when_they_are_a_quarter_or_less() {
        let data = b"alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n";
        let mut list = vec![0, 0, u32::MAX, 1, 6, 10, 1];
        let copy = picked_copy(data, &mut list).expect("4 bytes of 48");
        assert_eq!(copy, b"beta");
        assert_eq!(&list[3..], &[1, 0, 4, 1], "offsets point into the copy");
        let mut all = vec![0, 0, u32::MAX, 0, 0, 5, 1, 1, 6, 10, 1, 2, 11, 16, 1];
        assert_eq!(picked_copy(data, &mut all), None, "14 bytes of 48: the chunk itself goes");
        assert_eq!(&all[3..6], &[0, 0, 5], "offsets untouched");
    }

    #[test]
    fn spare_chunks_are_reused_few_and_small() {
        for _ in 0..SPARE_MOST + 2 {
            keep_chunk(Vec::with_capacity(1 << 10));
        }
        keep_chunk(Vec::with_capacity(SPARE_BYTES + 1));
        let kept = SPARE_CHUNKS.with_borrow(|spare| spare.iter().map(Vec::capacity).collect::<Vec<_>>());
        assert_eq!(kept.len(), SPARE_MOST, "at most SPARE_MOST kept");
        assert!(kept.iter().all(|&c| c <= SPARE_BYTES), "none over SPARE_BYTES");
        let reused = spare_chunk(100);
        assert!(reused.is_empty() && reused.capacity() >= 1 << 10);
        assert_eq!(SPARE_CHUNKS.with_borrow(Vec::len), SPARE_MOST - 1, "taken from the kept ones");
        assert!(spare_chunk(1 << 20).capacity() >= 1 << 20, "too large for any kept: a new one");
    }
}
