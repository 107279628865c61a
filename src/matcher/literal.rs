//! Literal patterns without an automaton where none is needed: exact, prefix and suffix
//! literals are looked up by length, then by hash, then compared; substrings go into one
//! Aho–Corasick automaton. Case-insensitive literals (ASCII) fold while hashing and
//! comparing, so no lowered copy of the text is ever made.

use super::grams::Grams;
use aho_corasick::{packed, AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use compact_str::CompactString;
use rustc_hash::FxHashMap;
use std::cell::Cell;
use std::sync::atomic::{AtomicI64, Ordering};
use std::thread::LocalKey;
use std::time::Instant;

/// Streaming FxHash over bytes, one byte at a time so a prefix's hash is a step of the
/// whole text's hash. Cost: one multiply per byte.
#[derive(Clone, Copy)]
struct ByteHash(u64);

impl ByteHash {
    const SEED: u64 = 0xcbf2_9ce4_8422_2325;
    const K: u64 = 0x517c_c1b7_2722_0a95;

    #[inline(always)]
    fn push(self, b: u8) -> Self {
        ByteHash((self.0.rotate_left(5) ^ b as u64).wrapping_mul(Self::K))
    }
}

#[inline(always)]
fn fold(b: u8, ci: bool) -> u8 {
    if ci {
        b.to_ascii_lowercase()
    } else {
        b
    }
}

fn hash_of(bytes: impl Iterator<Item = u8>, ci: bool) -> u64 {
    bytes.fold(ByteHash(ByteHash::SEED), |h, b| h.push(fold(b, ci))).0
}

fn same(a: &[u8], b: &[u8], ci: bool) -> bool {
    if ci {
        a.eq_ignore_ascii_case(b)
    } else {
        a == b
    }
}

/// Literals of one length: hash → (literal, pattern index).
type LengthTable = FxHashMap<u64, Vec<(CompactString, u32)>>;

/// Where literals of a `LengthIndex` sit in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Whole,
    Start,
    End,
}

/// Literals anchored to the whole text, its start or its end, found by length and hash.
/// Cost per text: for `Whole`, one length check and at most one hash of the text; for
/// `Start`/`End`, one pass over at most the longest literal's length, with a table look-up
/// at each literal length.
pub struct LengthIndex {
    anchor: Anchor,
    ci: bool,
    /// Distinct literal lengths, ascending, each with its table: hash → (literal, pattern).
    lengths: Vec<(usize, LengthTable)>,
    /// For `Start`/`End`: the bytes a literal can have at the anchor (both cases when `ci`),
    /// so a text whose anchor byte is none of them is passed over in one look-up.
    anchor_bytes: [bool; 256],
    /// An empty literal sits at the anchor of every text.
    has_empty: bool,
    /// Heap bytes held, estimated as literals are inserted.
    heap: usize,
}

impl LengthIndex {
    pub fn new(anchor: Anchor, ci: bool) -> Self {
        Self { anchor, ci, lengths: Vec::new(), anchor_bytes: [false; 256], has_empty: false, heap: 0 }
    }

    /// Heap bytes held: each entry's slot in its table, and literals too long to sit inline.
    pub fn memory_usage(&self) -> usize {
        self.heap
    }

    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    pub fn insert(&mut self, literal: &str, pattern: u32) {
        let bytes = literal.as_bytes();
        let edge = if self.anchor == Anchor::End { bytes.last() } else { bytes.first() };
        match edge {
            Some(&b) if self.ci => {
                self.anchor_bytes[b.to_ascii_lowercase() as usize] = true;
                self.anchor_bytes[b.to_ascii_uppercase() as usize] = true;
            }
            Some(&b) => self.anchor_bytes[b as usize] = true,
            None => self.has_empty = true,
        }
        let hash = match self.anchor {
            Anchor::End => hash_of(bytes.iter().rev().copied(), self.ci),
            _ => hash_of(bytes.iter().copied(), self.ci),
        };
        let at = match self.lengths.binary_search_by_key(&bytes.len(), |(l, _)| *l) {
            Ok(i) => i,
            Err(i) => {
                self.lengths.insert(i, (bytes.len(), FxHashMap::default()));
                i
            }
        };
        self.lengths[at].1.entry(hash).or_default().push((CompactString::from(literal), pattern));
        const ENTRY: usize = std::mem::size_of::<(u64, Vec<(CompactString, u32)>)>() + 32;
        self.heap += ENTRY + if literal.len() > 24 { literal.len() } else { 0 };
    }

    /// Calls `found(pattern, literal length)` for every literal that sits where the index
    /// says in `text`. Stops early, returning true, when `found` returns true.
    pub fn each_match(&self, text: &[u8], mut found: impl FnMut(u32, usize) -> bool) -> bool {
        let mut check = |table: &LengthTable, hash: u64, piece: &[u8]| -> bool {
            if let Some(candidates) = table.get(&hash) {
                for (lit, pattern) in candidates {
                    if same(lit.as_bytes(), piece, self.ci) && found(*pattern, piece.len()) {
                        return true;
                    }
                }
            }
            false
        };
        match self.anchor {
            Anchor::Whole => {
                if let Ok(i) = self.lengths.binary_search_by_key(&text.len(), |(l, _)| *l) {
                    return check(&self.lengths[i].1, hash_of(text.iter().copied(), self.ci), text);
                }
                false
            }
            Anchor::Start | Anchor::End => {
                let edge = if self.anchor == Anchor::Start { text.first() } else { text.last() };
                if !self.has_empty && !edge.is_some_and(|&b| self.anchor_bytes[b as usize]) {
                    return false;
                }
                let mut hash = ByteHash(ByteHash::SEED);
                let mut done = 0;
                for (len, table) in &self.lengths {
                    if *len > text.len() {
                        break;
                    }
                    // Extend the running hash from `done` to `len` bytes in from the anchor.
                    for k in done..*len {
                        let b = if self.anchor == Anchor::Start { text[k] } else { text[text.len() - 1 - k] };
                        hash = hash.push(fold(b, self.ci));
                    }
                    done = *len;
                    let piece = if self.anchor == Anchor::Start { &text[..*len] } else { &text[text.len() - len..] };
                    if check(table, hash.0, piece) {
                        return true;
                    }
                }
                false
            }
        }
    }

    /// Every literal that matches, with its byte span in `text`.
    pub fn spans(&self, text: &[u8], out: &mut Vec<(u32, usize, usize)>) {
        self.each_match(text, |pattern, len| {
            let (s, e) = match self.anchor {
                Anchor::Whole | Anchor::Start => (0, len),
                Anchor::End => (text.len() - len, text.len()),
            };
            out.push((pattern, s, e));
            false
        });
    }
}

/// Largest Aho–Corasick DFA a literal set may build (estimated before building).
pub const DFA_BUDGET: usize = 16 << 20;

/// Work the DFA's construction may take, at most: it follows failure links, which for a
/// long literal of one repeated byte (`aaaa…`) chain back through every state before, so
/// states × the longest literal bounds it (64 KiB of one byte took seconds as a DFA).
pub const DFA_BUILD_BUDGET: usize = 1 << 26;

pub fn dfa_build_estimate(literals: &[(String, u32)]) -> usize {
    let states: usize = literals.iter().map(|(l, _)| l.len()).sum();
    let longest = literals.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
    states.saturating_mul(longest)
}

/// An upper bound of the DFA's size for `literals`: one state per literal byte (a trie has
/// no more), times the distinct bytes (the DFA's byte classes) plus one, times 4 bytes.
pub fn dfa_estimate(literals: &[(String, u32)], ci: bool) -> usize {
    let mut seen = [false; 256];
    let mut states = 1usize;
    for (literal, _) in literals {
        states = states.saturating_add(literal.len());
        for &b in literal.as_bytes() {
            seen[b as usize] = true;
            if ci {
                seen[b.to_ascii_lowercase() as usize] = true;
                seen[b.to_ascii_uppercase() as usize] = true;
            }
        }
    }
    let classes = seen.iter().filter(|&&b| b).count() + 1;
    states.saturating_mul(classes).saturating_mul(4)
}

/// Substring literals of one case mode: those `Grams` takes in one structure, the others
/// in an Aho–Corasick automaton; below `GRAMS_MIN` literals, all of them in a second
/// automaton too, and a `Chooser` between the two ways.
pub struct ContainsSet {
    grams: Option<Grams>,
    automata: Option<Automata>,
    whole: Option<(Automata, Chooser)>,
    /// `is_match` of a few case-sensitive literals: Aho–Corasick's SIMD searcher (Teddy),
    /// where the machine has one (see `TEDDY_MAX`).
    teddy: Option<packed::Searcher>,
    /// The bytes Teddy's literals start with, when they are at most three (`TEDDY_SKIP_FROM`).
    starts: Option<Starts>,
}

/// The bytes a set's literals start with, when there are at most three of them.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Starts {
    One(u8),
    Two(u8, u8),
    Three(u8, u8, u8),
}

impl Starts {
    fn of(literals: &[(String, u32)]) -> Option<Starts> {
        let mut firsts: Vec<u8> = literals.iter().filter_map(|(l, _)| l.as_bytes().first().copied()).collect();
        firsts.sort_unstable();
        firsts.dedup();
        match firsts[..] {
            [a] => Some(Starts::One(a)),
            [a, b] => Some(Starts::Two(a, b)),
            [a, b, c] => Some(Starts::Three(a, b, c)),
            _ => None,
        }
    }

    /// Where the first of these bytes is in `text`.
    fn find(self, text: &[u8]) -> Option<usize> {
        match self {
            Starts::One(a) => memchr::memchr(a, text),
            Starts::Two(a, b) => memchr::memchr2(a, b, text),
            Starts::Three(a, b, c) => memchr::memchr3(a, b, c, text),
        }
    }
}

/// Most literals whose `is_match` Teddy answers. It finds a few literals' candidates 16 or
/// 32 bytes at a time, where `Grams` looks at every position; the more literals, the more
/// share each of its buckets and the more candidates it verifies. Aho–Corasick leaves it out
/// of the `Standard` (overlapping) search the other structures make. On random letters
/// (`examples/profile_matcher.rs`, `test`, the whole call), random sets of 2 to 20 literals
/// were faster with Teddy, and at 24 it fell behind. Its weak case, literals whose first
/// bytes a long text lacks, is `TEDDY_SKIP_FROM`'s.
const TEDDY_MAX: usize = 20;
/// Longest literal Teddy answers for. It compares a candidate with each literal of its
/// bucket in full: twenty literals sharing all but their last byte, on a long run of `a`,
/// were about even with the other way at 16 bytes, behind at 32, and took minutes at 60,000.
const TEDDY_MAX_LEN: usize = 16;
/// Shortest text that Teddy searches from the first byte a literal starts with, found by
/// `memchr`, when the literals start with at most three different bytes. Teddy reads 16 or
/// 32 bytes a step, `memchr` 32 or 64 with less work each. Ten literals beginning with `@`,
/// on long browser agents without one (`examples/profile_matcher.rs`, `test`), were several
/// times faster this way; where the first bytes are common (`G`, `b`, `B`), the same within
/// the noise. On short texts `memchr` mostly stops within a few bytes and the extra call
/// shows, hence the length.
const TEDDY_SKIP_FROM: usize = 256;

/// Fewest literals for which a set uses `Grams` alone. `Grams` looks at every position (or
/// every second to fourth, `grams::MAX_STRIDE`) of a text; Aho–Corasick's prefilters skip
/// most of a text whose bytes they rarely meet, but only for a few literals (Teddy takes up
/// to 64; a rare byte's `memchr`, a few such bytes). On random letters and on long browser
/// agents (`examples/profile_matcher.rs`, `test`), random and crawler sets were faster with
/// `Grams`; but ten literals that begin with `@`, which those texts lack, were many times
/// faster in Aho–Corasick (a `memchr`). So below `GRAMS_MIN` both ways are kept and a `Chooser`
/// picks by timing them; from 64 on, the DFA walk costs more as the set grows (its table
/// leaves the L1 cache) and `Grams` alone is kept.
const GRAMS_MIN: usize = 64;

impl ContainsSet {
    /// `None` when there are no literals.
    pub fn new(literals: &[(String, u32)], ci: bool) -> Option<Self> {
        // One literal: Aho–Corasick searches it with `memchr::memmem`.
        let split = if literals.len() >= 2 { Grams::new(literals, ci) } else { None };
        // `None` where the machine has no SIMD searcher, or for an empty literal.
        let short = literals.iter().all(|(l, _)| l.len() <= TEDDY_MAX_LEN);
        let teddy = (literals.len() >= 2 && literals.len() <= TEDDY_MAX && short && !ci)
            .then(|| packed::Config::new().builder().extend(literals.iter().map(|(l, _)| l)).build())
            .flatten();
        let starts = teddy.as_ref().and_then(|_| Starts::of(literals));
        let set = match split {
            Some((grams, rest)) => ContainsSet {
                grams: Some(grams),
                automata: Automata::new(&rest, ci),
                whole: (literals.len() < GRAMS_MIN)
                    .then(|| Automata::new(literals, ci).map(|whole| (whole, Chooser::new())))
                    .flatten(),
                teddy,
                starts,
            },
            None => ContainsSet { grams: None, automata: Automata::new(literals, ci), whole: None, teddy, starts },
        };
        (set.grams.is_some() || set.automata.is_some()).then_some(set)
    }

    /// The whole automaton, where it is kept and has been the faster lately. One call in
    /// `SAMPLE` on a thread first times both ways' `is_match` on `text`.
    fn chosen(&self, text: &[u8]) -> Option<&Automata> {
        let (whole, chooser) = self.whole.as_ref()?;
        if Chooser::sample(&SET_CALLS) {
            let start = Instant::now();
            let found = self.split_is_match(text);
            let between = Instant::now();
            let again = whole.is_match(text);
            let end = Instant::now();
            debug_assert_eq!(found, again);
            chooser.record((between - start).as_nanos(), (end - between).as_nanos());
        }
        chooser.second_is_faster().then_some(whole)
    }

    fn split_is_match(&self, text: &[u8]) -> bool {
        self.grams.as_ref().is_some_and(|g| g.is_match(text))
            || self.automata.as_ref().is_some_and(|a| a.is_match(text))
    }

    /// Whether any literal occurs. Cost: one pass of Teddy where the set has it (from the
    /// first byte a literal starts with, in a long text: `TEDDY_SKIP_FROM`), else a pass of
    /// each structure; each stops at the first occurrence.
    pub fn is_match(&self, text: &[u8]) -> bool {
        if let Some(teddy) = &self.teddy {
            let from = match self.starts {
                Some(starts) if text.len() >= TEDDY_SKIP_FROM => match starts.find(text) {
                    Some(at) => at,
                    None => return false,
                },
                _ => 0,
            };
            return teddy.find(&text[from..]).is_some();
        }
        match self.chosen(text) {
            Some(whole) => whole.is_match(text),
            None => self.split_is_match(text),
        }
    }

    /// Calls `found(pattern, start, end)` for every occurrence, overlapping ones included
    /// (each literal's in order of start).
    pub fn each_occurrence(&self, text: &[u8], mut found: impl FnMut(u32, usize, usize)) {
        self.try_each_occurrence(text, |p, s, e| {
            found(p, s, e);
            true
        });
    }

    /// Like `each_occurrence`, stopping (and returning false) when `found` returns false.
    pub fn try_each_occurrence(&self, text: &[u8], mut found: impl FnMut(u32, usize, usize) -> bool) -> bool {
        if let Some(whole) = self.chosen(text) {
            return whole.try_each_occurrence(text, found);
        }
        self.grams.as_ref().is_none_or(|g| g.try_each_occurrence(text, &mut found))
            && self.automata.as_ref().is_none_or(|a| a.try_each_occurrence(text, &mut found))
    }

    /// Heap bytes held.
    pub fn memory_usage(&self) -> usize {
        self.grams.as_ref().map_or(0, Grams::memory_usage)
            + self.automata.as_ref().map_or(0, Automata::memory_usage)
            + self.whole.as_ref().map_or(0, |(a, _)| a.memory_usage())
            + self.teddy.as_ref().map_or(0, packed::Searcher::memory_usage)
    }
}

/// Substring literals in one Aho–Corasick automaton.
struct Automata {
    automaton: AhoCorasick,
    /// The same automaton without a prefilter, for `is_match`, when it is small (see
    /// `Chooser`): `None` for sets whose DFA would be over `PLAIN_BUDGET`.
    plain: Option<(AhoCorasick, Chooser)>,
    /// Pattern index of each automaton pattern.
    patterns: Vec<u32>,
}

/// Largest DFA estimate for which a set also keeps an automaton without a prefilter.
const PLAIN_BUDGET: usize = 2 << 20;

/// Picks, call by call, the faster of two ways to answer: here a set's two automata for
/// `is_match` (and `ContainsSet`'s two structures, see `GRAMS_MIN`). A prefilter
/// (`aho-corasick`'s rare-byte or Teddy search, chosen from the literals) skips most of a
/// text whose bytes it rarely meets, but on a text where its bytes are common it stops at
/// nearly every byte and costs more than the plain DFA it was meant to avoid. Which case a
/// matcher meets depends on its texts, known only as they come: on random texts, random sets
/// of 2 to 10 literals ran from several times faster to several times slower with the
/// prefilter, and evenly without it (`examples/literal_engines.rs`). So every `SAMPLE`th call on a thread runs both and
/// times them, and a decaying sum of the differences picks for the calls between.
pub struct Chooser {
    /// Sum of (first way − second way) in ns over the samples, each weight decaying by
    /// 1/8 per sample: > 0 means the second (the plain automaton) has been faster lately.
    score: AtomicI64,
}

/// One call in this many, per thread, is a sample.
const SAMPLE: u32 = 128;
/// Most one sample's difference counts, in ns: a thread preempted between two clock reads
/// must not decide for the next hundred samples.
const CLAMP: i64 = 10_000;

thread_local! {
    /// Calls counted on this thread, for each kind of `Chooser` apart: one call may go
    /// through both (a set's structures, then its automaton's), and one shared count would
    /// then fall on one kind's samples only.
    static AUTOMATA_CALLS: Cell<u32> = const { Cell::new(0) };
    static SET_CALLS: Cell<u32> = const { Cell::new(0) };
}

impl Chooser {
    fn new() -> Self {
        Chooser { score: AtomicI64::new(0) }
    }

    /// Whether this call is a sample (one in `SAMPLE` on each thread) by `calls`.
    fn sample(calls: &'static LocalKey<Cell<u32>>) -> bool {
        calls.with(|c| {
            let n = c.get().wrapping_add(1);
            c.set(n);
            n % SAMPLE == 0
        })
    }

    /// Folds one sample in: the two ways' times (the prefiltered automaton's, then the plain).
    fn record(&self, first: u128, second: u128) {
        let diff = (first as i64).saturating_sub(second as i64).clamp(-CLAMP, CLAMP);
        // Not one atomic step: a sample lost to a race on another thread costs nothing.
        let score = self.score.load(Ordering::Relaxed);
        self.score.store(score - score / 8 + diff, Ordering::Relaxed);
    }

    fn second_is_faster(&self) -> bool {
        self.score.load(Ordering::Relaxed) > 0
    }
}

impl Automata {
    /// `None` when there are no literals.
    fn new(literals: &[(String, u32)], ci: bool) -> Option<Self> {
        if literals.is_empty() {
            return None;
        }
        // A DFA where it fits `DFA_BUDGET`: overlapping search (every occurrence, for `first`
        // and `matches`) measured faster than the contiguous NFA the builder picks above
        // 100 patterns, for a few MiB with 1500 literals. A DFA's size is states × byte
        // classes × 4 bytes, and its build time follows: 10,000 random 100-byte literals
        // would take seconds and GiB, so past the budget (or `DFA_BUILD_BUDGET`) the contiguous
        // NFA, linear to build, is named: left to choose, the builder takes a DFA for a few
        // patterns whatever their length.
        let estimate = dfa_estimate(literals, ci);
        let kind = if estimate <= DFA_BUDGET && dfa_build_estimate(literals) <= DFA_BUILD_BUDGET {
            AhoCorasickKind::DFA
        } else {
            AhoCorasickKind::ContiguousNFA
        };
        let builder = |kind: Option<AhoCorasickKind>, prefilter: bool| {
            AhoCorasickBuilder::new()
                .match_kind(MatchKind::Standard)
                .ascii_case_insensitive(ci)
                .kind(kind)
                .prefilter(prefilter)
                .build(literals.iter().map(|(l, _)| l.as_bytes()))
        };
        let automaton = builder(Some(kind), true).or_else(|_| builder(None, true)).ok()?;
        // Only beside a DFA that was built: after a fallback, a plain DFA would fail the same way.
        let plain = if automaton.kind() == AhoCorasickKind::DFA && estimate <= PLAIN_BUDGET {
            builder(Some(AhoCorasickKind::DFA), false).ok().map(|plain| (plain, Chooser::new()))
        } else {
            None
        };
        Some(Self { automaton, plain, patterns: literals.iter().map(|(_, p)| *p).collect() })
    }

    /// Whether any literal occurs. Cost: one pass, stopping at the first occurrence (two
    /// passes, timed, on a sample call: see `Chooser`).
    fn is_match(&self, text: &[u8]) -> bool {
        let Some((plain, chooser)) = &self.plain else {
            return self.automaton.is_match(text);
        };
        if Chooser::sample(&AUTOMATA_CALLS) {
            let start = Instant::now();
            let found = self.automaton.is_match(text);
            let between = Instant::now();
            let again = plain.is_match(text);
            let end = Instant::now();
            debug_assert_eq!(found, again);
            chooser.record((between - start).as_nanos(), (end - between).as_nanos());
            return found;
        }
        if chooser.second_is_faster() {
            plain.is_match(text)
        } else {
            self.automaton.is_match(text)
        }
    }

    /// Calls `found(pattern, start, end)` for every occurrence, overlapping ones included,
    /// stopping (and returning false) when `found` returns false.
    fn try_each_occurrence(&self, text: &[u8], mut found: impl FnMut(u32, usize, usize) -> bool) -> bool {
        self.automaton
            .find_overlapping_iter(text)
            .all(|m| found(self.patterns[m.pattern().as_usize()], m.start(), m.end()))
    }

    /// Heap bytes held by the automaton and the index table.
    fn memory_usage(&self) -> usize {
        self.automaton.memory_usage()
            + self.plain.as_ref().map_or(0, |(p, _)| p.memory_usage())
            + self.patterns.len() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(index: &LengthIndex, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        index.each_match(text.as_bytes(), |p, _| {
            out.push(p);
            false
        });
        out.sort();
        out
    }

    #[test]
    fn whole_text_literals_match_only_whole_texts() {
        let mut ix = LengthIndex::new(Anchor::Whole, false);
        ix.insert("robots.txt", 0);
        ix.insert("favicon.ico", 1);
        assert_eq!(found(&ix, "robots.txt"), vec![0]);
        assert_eq!(found(&ix, "robots.txt2"), Vec::<u32>::new());
        assert_eq!(found(&ix, "Robots.txt"), Vec::<u32>::new());
    }

    #[test]
    fn prefixes_and_suffixes_of_several_lengths_all_match() {
        let mut ix = LengthIndex::new(Anchor::Start, true);
        for (i, p) in ["/a", "/adm", "/ADMIN/", "/x"].iter().enumerate() {
            ix.insert(p, i as u32);
        }
        assert_eq!(found(&ix, "/Admin/login"), vec![0, 1, 2]);
        let mut sx = LengthIndex::new(Anchor::End, false);
        sx.insert(".png", 7);
        sx.insert("g", 8);
        assert_eq!(found(&sx, "logo.png"), vec![7, 8]);
        assert_eq!(found(&sx, "g"), vec![8]);
    }

    #[test]
    fn the_anchor_byte_filter_keeps_every_match() {
        let mut ix = LengthIndex::new(Anchor::Start, true);
        ix.insert("bot", 0);
        ix.insert("Curl", 1);
        assert_eq!(found(&ix, "BOT/1"), vec![0]);
        assert_eq!(found(&ix, "cURL/8"), vec![1]);
        assert_eq!(found(&ix, "Mozilla bot"), Vec::<u32>::new());
        assert_eq!(found(&ix, ""), Vec::<u32>::new());
        ix.insert("", 2);
        assert_eq!(found(&ix, "Mozilla"), vec![2]);
        assert_eq!(found(&ix, ""), vec![2]);
        let mut sx = LengthIndex::new(Anchor::End, false);
        sx.insert(".PHP", 3);
        assert_eq!(found(&sx, "/a.PHP"), vec![3]);
        assert_eq!(found(&sx, "/a.php"), Vec::<u32>::new());
    }

    #[test]
    fn both_automata_answer_alike_whichever_is_chosen() {
        let literals: Vec<(String, u32)> =
            ["bot", "crawl", "zq"].iter().enumerate().map(|(i, l)| (l.to_string(), i as u32)).collect();
        let set = Automata::new(&literals, true).unwrap();
        let (_, chooser) = set.plain.as_ref().expect("a small set keeps a plain automaton");
        let texts: [&[u8]; 4] = [b"Googlebot/2.1", b"nothing here", b"ZQ", b""];
        for score in [-5, 5] {
            chooser.score.store(score, Ordering::Relaxed);
            assert_eq!(chooser.second_is_faster(), score > 0);
            for _ in 0..SAMPLE {
                let answers: Vec<bool> = texts.iter().map(|t| set.is_match(t)).collect();
                assert_eq!(answers, [true, false, true, false]);
            }
        }
    }

    #[test]
    fn the_chooser_follows_the_faster_automaton() {
        let c = Chooser::new();
        assert!(!c.second_is_faster());
        for _ in 0..4 {
            c.record(500, 150);
        }
        assert!(c.second_is_faster());
        // A change of texts turns it back within a dozen samples, whatever came before.
        for _ in 0..1000 {
            c.record(500, 150);
        }
        for _ in 0..12 {
            c.record(40, 150);
        }
        assert!(!c.second_is_faster());
        // One huge outlier (a preempted thread) counts for at most `CLAMP`.
        c.record(u128::MAX, 0);
        for _ in 0..40 {
            c.record(40, 150);
        }
        assert!(!c.second_is_faster());
    }

    /// `literals` numbered in order, as a set takes them.
    fn numbered(literals: &[String]) -> Vec<(String, u32)> {
        literals.iter().cloned().zip(0..).collect()
    }

    /// `check(score)` with each way `chooser` picks forced in turn (score −1: the first, 1:
    /// the second), or once (score 0) for a set without a chooser.
    fn each_way(
        chooser: Option<&Chooser>,
        mut check: impl FnMut(i64) -> Result<(), proptest::test_runner::TestCaseError>,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let Some(chooser) = chooser else { return check(0) };
        for score in [-1, 1] {
            chooser.score.store(score, Ordering::Relaxed);
            check(score)?;
        }
        Ok(())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// Each automaton of a set, forced, against `contains` on random texts.
        #[test]
        fn both_automata_agree_with_a_naive_contains(
            literals in proptest::collection::vec("[a-dA-D]{1,5}", 1..12),
            texts in proptest::collection::vec("[a-dA-D x]{0,40}", 1..20),
            ci in proptest::bool::ANY,
        ) {
            let set = Automata::new(&numbered(&literals), ci).unwrap();
            let (_, chooser) = set.plain.as_ref().expect("a small set keeps a plain automaton");
            let fold = |s: &str| if ci { s.to_ascii_lowercase() } else { s.to_string() };
            each_way(Some(chooser), |_| {
                for t in &texts {
                    let expected = literals.iter().any(|l| fold(t).contains(&fold(l)));
                    proptest::prop_assert_eq!(set.is_match(t.as_bytes()), expected, "{:?} in {:?}", literals, t);
                }
                Ok(())
            })?;
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// A set below `GRAMS_MIN` answers alike by either way its chooser picks: every
        /// occurrence, each literal's in order of start, against a naive search.
        #[test]
        fn a_set_answers_alike_by_either_way(
            literals in proptest::collection::vec("[a-cA-C]{1,9}", 2..40),
            texts in proptest::collection::vec("[a-cA-C x]{0,60}", 1..10),
            ci in proptest::bool::ANY,
        ) {
            let set = ContainsSet::new(&numbered(&literals), ci).unwrap();
            // Two ways wherever `Grams` takes any literal (4 bytes or more).
            proptest::prop_assert_eq!(set.whole.is_some(), set.grams.is_some());
            let fold = |b: &[u8]| if ci { b.to_ascii_lowercase() } else { b.to_vec() };
            for t in &texts {
                let text = fold(t.as_bytes());
                let mut expected = Vec::new();
                for (p, l) in literals.iter().enumerate() {
                    let l = fold(l.as_bytes());
                    for start in 0..=text.len().saturating_sub(l.len()) {
                        if text[start..].starts_with(&l) && start + l.len() <= text.len() {
                            expected.push((p as u32, start, start + l.len()));
                        }
                    }
                }
                each_way(set.whole.as_ref().map(|(_, chooser)| chooser), |score| {
                    let mut got = Vec::new();
                    set.each_occurrence(t.as_bytes(), |p, s, e| got.push((p, s, e)));
                    for p in 0..literals.len() as u32 {
                        let starts: Vec<usize> = got.iter().filter(|f| f.0 == p).map(|f| f.1).collect();
                        proptest::prop_assert!(starts.windows(2).all(|w| w[0] < w[1]), "order of start: {:?}", starts);
                    }
                    got.sort_unstable();
                    proptest::prop_assert_eq!(&got, &expected, "{:?} in {:?}, score {}", literals, t, score);
                    proptest::prop_assert_eq!(set.is_match(t.as_bytes()), !expected.is_empty());
                    Ok(())
                })?;
            }
        }
    }

    #[test]
    fn a_large_set_finds_occurrences_in_both_its_structures() {
        // 70 literals: Grams takes the 4-byte and longer ones, the automaton the rest.
        let mut literals: Vec<(String, u32)> = (0..68).map(|i| (format!("word{i:02}x"), i)).collect();
        literals.push(("ab".into(), 68));
        literals.push(("Word07X".into(), 69));
        for ci in [false, true] {
            let set = ContainsSet::new(&literals, ci).unwrap();
            assert!(set.grams.is_some() && set.automata.is_some());
            // From `GRAMS_MIN` on, no second way is kept.
            assert!(set.whole.is_none());
            let mut got = Vec::new();
            set.each_occurrence(b"xWORD07xab word07x word67x", |p, s, e| got.push((p, s, e)));
            got.sort_unstable();
            let mut expected = vec![(7, 11, 18), (67, 19, 26), (68, 8, 10)];
            if ci {
                expected.extend([(7, 1, 8), (69, 1, 8), (69, 11, 18)]);
            }
            expected.sort_unstable();
            assert_eq!(got, expected, "ci: {ci}");
            assert!(set.is_match(b"..ab..") && set.is_match(b"word00x") && !set.is_match(b"word0"));
        }
    }

    /// The machines we build for have SIMD (SSSE3 or AVX2, NEON), so Teddy.
    const SIMD: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

    /// Asserts that each of `words` (the set's literals) is found at every position of an
    /// `x` text of each length, and is not found once its last byte is removed.
    fn found_at_every_position(set: &ContainsSet, words: &[&str], lengths: &[usize]) {
        for &len in lengths {
            let filler = vec![b'x'; len];
            assert!(!set.is_match(&filler));
            for word in words {
                for at in 0..=len {
                    let mut text = filler.clone();
                    text.splice(at..at, word.bytes());
                    assert!(set.is_match(&text), "{word} at {at} of {len}");
                    text.remove(at + word.len() - 1);
                    assert!(!set.is_match(&text), "{word} cut at {at} of {len}");
                }
            }
        }
    }

    #[test]
    fn a_few_case_sensitive_literals_are_tested_by_teddy_at_every_position() {
        let words = ["needle", "pin", "haystacks", "q"];
        let literals = numbered(&words.map(String::from));
        let set = ContainsSet::new(&literals, false).unwrap();
        assert_eq!(set.teddy.is_some(), SIMD);
        // Four first bytes: searched from the start.
        assert_eq!(set.starts, None);
        // Before, across and after each SIMD block, and in texts shorter than Teddy reads.
        found_at_every_position(&set, &words, &[0, 1, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 200, 300]);
        // Case-insensitive sets, sets past `TEDDY_MAX`, a literal past `TEDDY_MAX_LEN` and an
        // empty literal keep their own ways.
        assert!(ContainsSet::new(&literals, true).unwrap().teddy.is_none());
        let many: Vec<String> = (0..=TEDDY_MAX).map(|i| format!("word{i}")).collect();
        assert_eq!(ContainsSet::new(&numbered(&many[1..]), false).unwrap().teddy.is_some(), SIMD);
        assert!(ContainsSet::new(&numbered(&many), false).unwrap().teddy.is_none());
        let long = numbered(&["ab".into(), "x".repeat(TEDDY_MAX_LEN)]);
        assert_eq!(ContainsSet::new(&long, false).unwrap().teddy.is_some(), SIMD);
        let longer = numbered(&["ab".into(), "x".repeat(TEDDY_MAX_LEN + 1)]);
        assert!(ContainsSet::new(&longer, false).unwrap().teddy.is_none());
        let with_empty = numbered(&["ab".into(), String::new()]);
        let set = ContainsSet::new(&with_empty, false).unwrap();
        assert!(set.teddy.is_none() && set.is_match(b"") && set.is_match(b"zz"));
    }

    #[test]
    fn teddy_searches_a_long_text_from_where_a_literal_can_start() {
        // Two first bytes, `n` and `p`.
        let words = ["needle", "pin", "nap"];
        let set = ContainsSet::new(&numbered(&words.map(String::from)), false).unwrap();
        assert_eq!(set.starts, SIMD.then_some(Starts::Two(b'n', b'p')));
        let lengths = [TEDDY_SKIP_FROM - 8, TEDDY_SKIP_FROM - 1, TEDDY_SKIP_FROM, TEDDY_SKIP_FROM + 1, 1000];
        found_at_every_position(&set, &words, &lengths);
        for len in lengths {
            // First bytes early and a word at the end: the search goes past the first of them.
            let mut text = vec![b'x'; len];
            text[..4].copy_from_slice(b"pnap");
            assert!(set.is_match(&text), "nap at 1 of {len}");
            text[1] = b'x';
            assert!(!set.is_match(&text), "no word in {len}");
            text.extend_from_slice(b"needle");
            assert!(set.is_match(&text), "needle at the end of {len}");
        }
        for (words, starts) in [
            (&["ab", "ac"][..], Some(Starts::One(b'a'))),
            (&["ab", "bc", "cd"], Some(Starts::Three(b'a', b'b', b'c'))),
            (&["ab", "bc", "cd", "de"], None),
        ] {
            let set =
                ContainsSet::new(&numbered(&words.iter().map(|w| w.to_string()).collect::<Vec<_>>()), false).unwrap();
            assert_eq!(set.starts, starts.filter(|_| SIMD), "{words:?}");
        }
    }

    #[test]
    fn substrings_are_found_with_overlaps() {
        let set = ContainsSet::new(&[("aa".into(), 3), ("bot".into(), 5)], true).unwrap();
        let mut got = Vec::new();
        set.each_occurrence(b"aaa BOT", |p, s, e| got.push((p, s, e)));
        assert_eq!(got, vec![(3, 0, 2), (3, 1, 3), (5, 4, 7)]);
    }
}
