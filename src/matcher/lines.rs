//! Matching every line of a large buffer without splitting it into strings.

use super::Matcher;
use crate::error::Result;

/// Bytes scanned between two checks of the caller's abort flag.
const CHECK_EVERY: usize = 1 << 20;

/// 0-based numbers of the lines of `data` (split at `\n`, a trailing `\r` removed) on which
/// any pattern matches. `aborted` is polled about every MiB; its error is returned.
/// Cost: linear in `data`, with no copy of it.
pub fn scan_lines(matcher: &Matcher, data: &[u8], aborted: &dyn Fn() -> Result<()>) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut next_check = CHECK_EVERY;
    let mut line = 0u32;
    while start <= data.len() {
        let end = memchr::memchr(b'\n', &data[start..]).map_or(data.len(), |i| start + i);
        let mut body = &data[start..end];
        if let [rest @ .., b'\r'] = body {
            body = rest;
        }
        // A final empty line (the text ended with '\n') is not a line.
        if (end < data.len() || !body.is_empty() || start < end) && matcher.test(body) {
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
