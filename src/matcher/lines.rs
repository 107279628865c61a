//! Matching every line of a large buffer without splitting it into strings.

use super::Matcher;
use crate::error::Result;

/// Bytes scanned between two checks of the caller's abort flag.
const CHECK_EVERY: usize = 1 << 20;

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
        let Some(ac) = self.filter else { return true };
        if self.next.is_none_or(|h| h < start) {
            let found = ac.find(aho_corasick::Input::new(self.data).range(start..));
            self.next = Some(found.map_or(usize::MAX, |m| m.start()));
        }
        self.next.is_some_and(|h| h < end)
    }
}

/// 0-based numbers of the lines of `data` (split at `\n`, a trailing `\r` removed) on which
/// any pattern matches. `aborted` is polled about every MiB; its error is returned.
/// Cost: linear in `data`, with no copy of it.
pub fn scan_lines(matcher: &Matcher, data: &[u8], aborted: &dyn Fn() -> Result<()>) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut next_check = CHECK_EVERY;
    let mut line = 0u32;
    let mut hits = Hits { filter: matcher.line_filter(), data, next: None };
    while start <= data.len() {
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
    let mut hits = Hits { filter: matcher.line_filter(), data, next: None };
    while start < data.len() {
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
}
