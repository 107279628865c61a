//! A JavaScript `RegExp` source, read as ECMAScript reads it: with `u`, the strict grammar;
//! without, the web-compatible one (Annex B: `]`, `{` and `}` as literals, `[\w-.]`, legacy
//! octal escapes, `\c` and identity escapes). The tree keeps only what matching needs:
//! characters, sets (case-closed and negated already), repetition, alternation, assertions.

use super::charset::{CaseFlags, CharSet};
use super::properties::{is_identifier_part, is_identifier_start};

/// The flags that change what a pattern means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub ignore_case: bool,
    pub multiline: bool,
    pub dot_all: bool,
    pub unicode: bool,
}

impl Flags {
    /// Reads a flags string (`"gimsuy"`…). `g` and `d` change nothing a matcher answers.
    pub fn parse(flags: &str) -> Result<Flags, String> {
        let mut out = Flags::default();
        let mut seen = String::new();
        for c in flags.chars() {
            if seen.contains(c) {
                return Err(format!("the flag '{c}' is repeated"));
            }
            seen.push(c);
            match c {
                'i' => out.ignore_case = true,
                'm' => out.multiline = true,
                's' => out.dot_all = true,
                'u' => out.unicode = true,
                'g' | 'd' => {}
                'y' => return Err("the flag 'y' (sticky) is not supported: a matcher has no lastIndex".into()),
                'v' => return Err("the flag 'v' (unicodeSets) is not supported yet; use 'u'".into()),
                _ => return Err(format!("'{c}' is not a regular expression flag")),
            }
        }
        Ok(out)
    }

    pub fn mode(self) -> CaseFlags {
        CaseFlags { unicode: self.unicode, ignore_case: self.ignore_case }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Empty,
    /// One literal character (a code unit without `u`); case folding is applied later.
    Char(u32),
    /// One character of a set, case-closed and negated already.
    Set(CharSet),
    Seq(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
    /// `^` and `$` without `m`; also what look-around bodies use for the text's edges.
    TextStart,
    TextEnd,
    /// `^` and `$` with `m`.
    LineStart,
    LineEnd,
    WordBoundary {
        negated: bool,
    },
    Look {
        ahead: bool,
        negative: bool,
        body: Box<Node>,
    },
}

/// Largest repetition count read; a larger one is refused (JavaScript allows 2^53 − 1, but
/// no pattern that large could be compiled within the size budget anyway).
const MAX_COUNT: u32 = 100_000;

struct Parser {
    /// The source as the pattern reads it: code points with `u`, UTF-16 code units without.
    src: Vec<u32>,
    pos: usize,
    flags: Flags,
    captures: u32,
    named: bool,
    /// Groups open around the current position.
    depth: usize,
    /// The names of the groups read so far.
    names: Vec<String>,
}

/// Deepest nesting of groups read: each level is a few frames of recursion here and in every
/// pass over the tree (and Rust's `regex` parser refuses nesting past 250 anyway).
pub const MAX_DEPTH: usize = 128;

type PResult<T> = Result<T, String>;

/// The line terminators of `.` and of `^`/`$` with `m`.
pub const LINE_TERMINATORS: [(u32, u32); 3] = [(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)];

pub fn parse(source: &str, flags: Flags) -> PResult<Node> {
    let src: Vec<u32> = if flags.unicode {
        source.chars().map(|c| c as u32).collect()
    } else {
        source.encode_utf16().map(u32::from).collect()
    };
    let (captures, named) = count_groups(&src);
    let mut p = Parser { src, pos: 0, flags, captures, named, depth: 0, names: Vec::new() };
    let node = p.disjunction()?;
    if p.pos < p.src.len() {
        return Err(match p.peek() {
            Some(0x29) => "unmatched ')'".to_string(),
            _ => format!("unexpected character at position {}", p.pos),
        });
    }
    Ok(node)
}

/// Capturing groups in a JS source (what `$1` of a replacement would name).
pub fn capture_groups(source: &str) -> u32 {
    count_groups(&source.encode_utf16().map(u32::from).collect::<Vec<_>>()).0
}

/// Capturing groups in the whole source, and whether any is named: without `u` they decide
/// whether `\1` is a backreference or an octal escape, and whether `\k` is one.
fn count_groups(src: &[u32]) -> (u32, bool) {
    let (mut n, mut named, mut i, mut in_class) = (0, false, 0, false);
    while i < src.len() {
        match src[i] {
            0x5C => i += 1,
            0x5B => in_class = true,
            0x5D => in_class = false,
            0x28 if !in_class => {
                if src.get(i + 1) != Some(&0x3F) {
                    n += 1;
                } else if src.get(i + 2) == Some(&0x3C) && !matches!(src.get(i + 3), Some(0x3D) | Some(0x21)) {
                    n += 1;
                    named = true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    (n, named)
}

fn is_syntax_char(c: u32) -> bool {
    matches!(
        char::from_u32(c),
        Some('^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|')
    )
}

fn hex(c: u32) -> Option<u32> {
    char::from_u32(c)?.to_digit(16)
}

pub fn class_escape(c: char, mode: CaseFlags) -> Option<CharSet> {
    let digits = CharSet::from_ranges([(0x30, 0x39)]);
    let word = {
        let basic = CharSet::from_ranges([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]);
        // With `i` and `u`, characters that fold into the basic word set are word characters.
        if mode.unicode && mode.ignore_case {
            basic.union(&CharSet::from_ranges([(0x17F, 0x17F), (0x212A, 0x212A)]))
        } else {
            basic
        }
    };
    let space = CharSet::from_ranges([
        (0x09, 0x0D),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ]);
    Some(match c {
        'd' => digits,
        'D' => digits.complement(mode.max()),
        'w' => word,
        'W' => word.complement(mode.max()),
        's' => space,
        'S' => space.complement(mode.max()),
        _ => return None,
    })
}

/// One item of a class: a character (which may start a range) or a set (`\d`, `\p{…}`).
enum ClassAtom {
    Char(u32),
    Set(CharSet),
}

impl Parser {
    fn peek(&self) -> Option<u32> {
        self.src.get(self.pos).copied()
    }

    fn peek_at(&self, k: usize) -> Option<u32> {
        self.src.get(self.pos + k).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c as u32) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn mode(&self) -> CaseFlags {
        self.flags.mode()
    }

    fn disjunction(&mut self) -> PResult<Node> {
        let mut alts = vec![self.alternative()?];
        while self.eat('|') {
            alts.push(self.alternative()?);
        }
        Ok(if alts.len() == 1 { alts.pop().unwrap_or(Node::Empty) } else { Node::Alt(alts) })
    }

    fn alternative(&mut self) -> PResult<Node> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' as u32 || c == ')' as u32 {
                break;
            }
            items.push(self.term()?);
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.pop().unwrap_or(Node::Empty),
            _ => Node::Seq(items),
        })
    }

    fn term(&mut self) -> PResult<Node> {
        let start = self.pos;
        let c = self.peek().unwrap_or(0);
        let (atom, quantifiable) = match char::from_u32(c) {
            Some('^') => {
                self.pos += 1;
                (if self.flags.multiline { Node::LineStart } else { Node::TextStart }, false)
            }
            Some('$') => {
                self.pos += 1;
                (if self.flags.multiline { Node::LineEnd } else { Node::TextEnd }, false)
            }
            Some('\\') if matches!(self.peek_at(1), Some(0x62) | Some(0x42)) => {
                let negated = self.peek_at(1) == Some(0x42);
                self.pos += 2;
                (Node::WordBoundary { negated }, false)
            }
            Some('(') => self.group()?,
            Some('.') => {
                self.pos += 1;
                let all = CharSet::from_ranges([(0, self.mode().max())]);
                let set = if self.flags.dot_all { all } else { all.minus(&CharSet::from_ranges(LINE_TERMINATORS)) };
                (Node::Set(set), true)
            }
            Some('[') => (Node::Set(self.class()?), true),
            Some('\\') => (self.atom_escape()?, true),
            Some('*' | '+' | '?') => return Err(format!("nothing to repeat at position {start}")),
            Some('{') if self.flags.unicode || self.quantifier_braces().is_some() => {
                return Err(format!("nothing to repeat at position {start}"))
            }
            Some(']' | '}') if self.flags.unicode => {
                return Err(format!("lone '{}' at position {start}", c as u8 as char))
            }
            _ => {
                self.pos += 1;
                (Node::Char(c), true)
            }
        };
        let Some((min, max)) = self.quantifier()? else { return Ok(atom) };
        if !quantifiable {
            return Err(format!("a quantifier after an assertion at position {start} is not supported"));
        }
        let greedy = !self.eat('?');
        if max.is_some_and(|m| m < min) {
            return Err(format!("numbers out of order in {{}} quantifier at position {start}"));
        }
        Ok(Node::Repeat { node: Box::new(atom), min, max, greedy })
    }

    /// `{n}`, `{n,}`, `{n,m}` at the current position, without consuming it.
    fn quantifier_braces(&self) -> Option<(u32, Option<u32>, usize)> {
        let mut i = self.pos;
        if self.src.get(i) != Some(&('{' as u32)) {
            return None;
        }
        i += 1;
        let number = |i: &mut usize| -> Option<u32> {
            let start = *i;
            let mut n: u64 = 0;
            while let Some(d) = self.src.get(*i).and_then(|&c| char::from_u32(c)?.to_digit(10)) {
                n = (n * 10 + d as u64).min(u64::from(u32::MAX));
                *i += 1;
            }
            (*i > start).then_some(n as u32)
        };
        let min = number(&mut i)?;
        let max = if self.src.get(i) == Some(&(',' as u32)) {
            i += 1;
            number(&mut i)
        } else {
            Some(min)
        };
        (self.src.get(i) == Some(&('}' as u32))).then_some((min, max, i + 1))
    }

    fn quantifier(&mut self) -> PResult<Option<(u32, Option<u32>)>> {
        let q = match self.peek().and_then(char::from_u32) {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => match self.quantifier_braces() {
                Some((min, max, end)) => {
                    if min > MAX_COUNT || max.is_some_and(|m| m > MAX_COUNT) {
                        return Err(format!("a repetition count over {MAX_COUNT} is not supported"));
                    }
                    self.pos = end;
                    return Ok(Some((min, max)));
                }
                None if self.flags.unicode => return Err(format!("incomplete quantifier at position {}", self.pos)),
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        self.pos += 1;
        Ok(Some(q))
    }

    fn group(&mut self) -> PResult<(Node, bool)> {
        let start = self.pos;
        self.pos += 1;
        let look = |ahead, negative| Some((ahead, negative));
        let mut kind = None;
        if self.eat('?') {
            match self.peek().and_then(char::from_u32) {
                Some(':') => self.pos += 1,
                Some('=') => {
                    self.pos += 1;
                    kind = look(true, false);
                }
                Some('!') => {
                    self.pos += 1;
                    kind = look(true, true);
                }
                Some('<') if matches!(self.peek_at(1), Some(0x3D) | Some(0x21)) => {
                    kind = look(false, self.peek_at(1) == Some(0x21));
                    self.pos += 2;
                }
                Some('<') => {
                    self.pos += 1;
                    self.group_name()?;
                }
                _ => return Err(format!("invalid group at position {start} (pattern modifiers are not supported)")),
            }
        }
        if self.depth >= MAX_DEPTH {
            return Err(format!("groups nest more than {MAX_DEPTH} deep (at position {start})"));
        }
        self.depth += 1;
        let body = self.disjunction()?;
        self.depth -= 1;
        if !self.eat(')') {
            return Err(format!("unterminated group at position {start}"));
        }
        Ok(match kind {
            // Without `u`, a look-ahead may be quantified (Annex B); `term` refuses that.
            Some((ahead, negative)) => (Node::Look { ahead, negative, body: Box::new(body) }, false),
            None => (body, true),
        })
    }

    /// `Name>` after `(?<`: an ECMAScript RegExpIdentifierName (ID_Start, `$` or `_`, then
    /// ID_Continue, `$`, ZWNJ or ZWJ; each may be written `\uXXXX` or `\u{…}`, read as with
    /// `u` whatever the flags, and without `u` an astral one is its surrogate pair), and not
    /// the name of another group: V8 in Node 20 and 22 refuses every duplicate (Node 24 allows
    /// one in another alternative; refused here too).
    fn group_name(&mut self) -> PResult<()> {
        let start = self.pos;
        let invalid = || format!("invalid capture group name at position {start}");
        let mut name = String::new();
        loop {
            let Some(c) = self.peek() else { return Err(format!("unterminated group name at position {start}")) };
            self.pos += 1;
            if c == '>' as u32 {
                break;
            }
            let cp = if c == '\\' as u32 {
                if !self.eat('u') {
                    return Err(invalid());
                }
                let unicode = self.flags.unicode;
                self.flags.unicode = true;
                let escaped = self.unicode_escape();
                self.flags.unicode = unicode;
                escaped?.ok_or_else(invalid)?
            } else if let Some(lo) = self
                .peek()
                .filter(|lo| !self.flags.unicode && (0xD800..0xDC00).contains(&c) && (0xDC00..0xE000).contains(lo))
            {
                self.pos += 1;
                0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00)
            } else {
                c
            };
            let ok = if name.is_empty() { is_identifier_start(cp) } else { is_identifier_part(cp) };
            name.push(char::from_u32(cp).filter(|_| ok).ok_or_else(invalid)?);
        }
        if name.is_empty() {
            return Err("an empty group name".into());
        }
        if self.names.contains(&name) {
            return Err(format!("duplicate capture group name '{name}'"));
        }
        self.names.push(name);
        Ok(())
    }

    fn atom_escape(&mut self) -> PResult<Node> {
        let at = self.pos;
        self.pos += 1; // the backslash
        let Some(c) = self.peek() else { return Err("a pattern cannot end with '\\'".into()) };
        let ch = char::from_u32(c).unwrap_or('\0');
        if ch.is_ascii_digit() && ch != '0' {
            let digits_start = self.pos;
            let mut n: u64 = 0;
            while let Some(d) = self.peek().and_then(char::from_u32).and_then(|c| c.to_digit(10)) {
                n = (n * 10 + d as u64).min(u64::from(u32::MAX));
                self.pos += 1;
            }
            if self.flags.unicode || n <= u64::from(self.captures) {
                if n > u64::from(self.captures) {
                    return Err(format!("invalid escape \\{n} at position {at}: there is no group {n}"));
                }
                return Err(format!("a backreference (\\{n}) has no linear-time meaning"));
            }
            // Annex B: `\8` and `\9` are the digits; `\1`–`\7` start an octal escape.
            self.pos = digits_start;
            if ch >= '8' {
                self.pos += 1;
                return Ok(Node::Char(c));
            }
            return Ok(Node::Char(self.legacy_octal()));
        }
        if ch == 'k' && (self.flags.unicode || self.named) {
            return Err("a named backreference (\\k<…>) has no linear-time meaning".into());
        }
        Ok(match self.class_atom_escape(false)? {
            ClassAtom::Char(c) => Node::Char(c),
            ClassAtom::Set(s) => Node::Set(s),
        })
    }

    /// Up to three octal digits, at most 0o377 (Annex B).
    fn legacy_octal(&mut self) -> u32 {
        let digit = |p: &Parser, k| p.peek_at(k).and_then(char::from_u32).and_then(|c| c.to_digit(8));
        let mut n = 0;
        let mut len = 0;
        while len < 3 {
            let Some(d) = digit(self, 0) else { break };
            if len == 2 && n >= 0o40 {
                break;
            }
            n = n * 8 + d;
            self.pos += 1;
            len += 1;
        }
        n
    }

    /// The escape after a backslash (already consumed), outside or `in_class`.
    fn class_atom_escape(&mut self, in_class: bool) -> PResult<ClassAtom> {
        let at = self.pos - 1;
        let c = self.peek().unwrap_or(0);
        let ch = char::from_u32(c).unwrap_or('\0');
        let u = self.flags.unicode;
        self.pos += 1;
        let simple = |v: u32| Ok(ClassAtom::Char(v));
        match ch {
            'd' | 'D' | 'w' | 'W' | 's' | 'S' => {
                let set = class_escape(ch, self.mode()).unwrap_or_default();
                let set = if self.flags.ignore_case && matches!(ch, 'w' | 'W') {
                    // \W with `i`: the complement of the case-closed word set.
                    let word = class_escape('w', self.mode()).unwrap_or_default().case_closure(self.mode());
                    if ch == 'w' {
                        word
                    } else {
                        word.complement(self.mode().max())
                    }
                } else {
                    set
                };
                Ok(ClassAtom::Set(set))
            }
            'p' | 'P' if u => {
                let set = self.property()?;
                Ok(ClassAtom::Set(if ch == 'P' { set.complement(self.mode().max()) } else { set }))
            }
            'f' => simple(0x0C),
            'n' => simple(0x0A),
            'r' => simple(0x0D),
            't' => simple(0x09),
            'v' => simple(0x0B),
            'b' if in_class => simple(0x08),
            '-' if in_class => simple('-' as u32),
            'c' => {
                let next = self.peek().and_then(char::from_u32);
                match next {
                    Some(l) if l.is_ascii_alphabetic() => {
                        self.pos += 1;
                        simple(l as u32 % 32)
                    }
                    Some(l) if in_class && !u && (l.is_ascii_digit() || l == '_') => {
                        self.pos += 1;
                        simple(l as u32 % 32)
                    }
                    _ if u => Err(format!("invalid escape \\c at position {at}")),
                    // Annex B: the backslash is itself; 'c' is read next.
                    _ => {
                        self.pos -= 1;
                        simple('\\' as u32)
                    }
                }
            }
            '0' if !self.peek().and_then(char::from_u32).is_some_and(|d| d.is_ascii_digit()) => simple(0),
            '0'..='9' if in_class => {
                if u {
                    return Err(format!("invalid class escape at position {at}"));
                }
                if ch >= '8' {
                    return simple(c);
                }
                self.pos -= 1;
                Ok(ClassAtom::Char(self.legacy_octal()))
            }
            '0' if !u => {
                self.pos -= 1;
                Ok(ClassAtom::Char(self.legacy_octal()))
            }
            'x' => match (self.peek().and_then(hex), self.peek_at(1).and_then(hex)) {
                (Some(a), Some(b)) => {
                    self.pos += 2;
                    simple(a * 16 + b)
                }
                _ if u => Err(format!("invalid escape \\x at position {at}")),
                _ => simple('x' as u32),
            },
            'u' => match self.unicode_escape()? {
                Some(v) => simple(v),
                None if u => Err(format!("invalid Unicode escape at position {at}")),
                None => simple('u' as u32),
            },
            _ if u => {
                if is_syntax_char(c) || ch == '/' {
                    simple(c)
                } else {
                    Err(format!("invalid escape '\\{ch}' at position {at}"))
                }
            }
            _ if self.pos > self.src.len() => Err("a pattern cannot end with '\\'".into()),
            _ => simple(c),
        }
    }

    /// After `\u`: `XXXX`, or with `u` also `{X…}` and a surrogate pair of escapes.
    fn unicode_escape(&mut self) -> PResult<Option<u32>> {
        let four = |p: &Parser, k: usize| -> Option<u32> {
            (0..4).try_fold(0, |acc, i| Some(acc * 16 + p.peek_at(k + i).and_then(hex)?))
        };
        if self.flags.unicode && self.peek() == Some('{' as u32) {
            let mut i = 1;
            let mut v: u32 = 0;
            while let Some(d) = self.peek_at(i).and_then(hex) {
                v = v.saturating_mul(16).saturating_add(d);
                i += 1;
            }
            if i == 1 || self.peek_at(i) != Some('}' as u32) || v > 0x10FFFF {
                return Ok(None);
            }
            self.pos += i + 1;
            return Ok(Some(v));
        }
        let Some(v) = four(self, 0) else { return Ok(None) };
        self.pos += 4;
        if self.flags.unicode
            && (0xD800..0xDC00).contains(&v)
            && self.peek() == Some('\\' as u32)
            && self.peek_at(1) == Some('u' as u32)
        {
            if let Some(lo) = four(self, 2).filter(|lo| (0xDC00..0xE000).contains(lo)) {
                self.pos += 6;
                return Ok(Some(0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00)));
            }
        }
        Ok(Some(v))
    }

    /// `{Name}` or `{Name=Value}` after `\p`, exactly as ECMAScript spells them
    /// (`unicode_tables`: no loose matching; V8's `SyntaxError` is ours).
    fn property(&mut self) -> PResult<CharSet> {
        if !self.eat('{') {
            return Err("invalid property name: \\p needs {…}".into());
        }
        let start = self.pos;
        while self.peek().is_some_and(|c| c != '}' as u32) {
            self.pos += 1;
        }
        let name: String = self.src[start..self.pos].iter().filter_map(|&c| char::from_u32(c)).collect();
        if !self.eat('}') {
            return Err(format!("invalid property name '{name}'"));
        }
        let set = super::properties::lookup(&name).ok_or_else(|| format!("invalid property name '{name}'"))?;
        Ok(if self.flags.ignore_case { set.case_closure(self.mode()) } else { set })
    }

    fn class(&mut self) -> PResult<CharSet> {
        let start = self.pos;
        self.pos += 1;
        let negated = self.eat('^');
        let mut set = CharSet::empty();
        loop {
            let Some(c) = self.peek() else { return Err(format!("unterminated character class at position {start}")) };
            if c == ']' as u32 {
                self.pos += 1;
                break;
            }
            let first = self.class_atom()?;
            if self.peek() == Some('-' as u32) && self.peek_at(1).is_some_and(|c| c != ']' as u32) {
                self.pos += 1;
                let second = self.class_atom()?;
                match (first, second) {
                    (ClassAtom::Char(a), ClassAtom::Char(b)) => {
                        if a > b {
                            return Err(format!("range out of order in character class at position {start}"));
                        }
                        set = set.union(&CharSet::from_ranges([(a, b)]));
                    }
                    _ if self.flags.unicode => {
                        return Err(format!("invalid character class range at position {start}"));
                    }
                    // Annex B: a class escape at either end makes the '-' a literal.
                    (a, b) => {
                        for atom in [a, ClassAtom::Char('-' as u32), b] {
                            set = set.union(&match atom {
                                ClassAtom::Char(c) => CharSet::one(c),
                                ClassAtom::Set(s) => s,
                            });
                        }
                    }
                }
            } else {
                set = set.union(&match first {
                    ClassAtom::Char(c) => CharSet::one(c),
                    ClassAtom::Set(s) => s,
                });
            }
        }
        let set = if self.flags.ignore_case { set.case_closure(self.mode()) } else { set };
        Ok(if negated { set.complement(self.mode().max()) } else { set })
    }

    fn class_atom(&mut self) -> PResult<ClassAtom> {
        let c = self.peek().unwrap_or(0);
        if c == '\\' as u32 {
            self.pos += 1;
            if self.pos >= self.src.len() {
                return Err("a pattern cannot end with '\\'".into());
            }
            if self.peek() == Some('B' as u32) && self.flags.unicode {
                return Err("invalid class escape \\B".into());
            }
            return self.class_atom_escape(true);
        }
        self.pos += 1;
        Ok(ClassAtom::Char(c))
    }
}
