//! What every regex engine of a matcher is built with: the compile budgets, the set
//! configuration, the syntax, and build errors in words a caller can act on. `regex_set`
//! and `any` both build from here; neither reaches into the other for it.
use regex_automata::meta::{self, Regex};
use regex_automata::util::syntax;
use regex_automata::MatchKind;
use regex_syntax::hir::Hir;

/// Compiled size one pattern may reach (its NFA). Past it, refusal takes tens of ms.
pub const PATTERN_SIZE: usize = 4 << 20;
/// Compiled size the whole set may reach.
pub const SET_SIZE: usize = 32 << 20;
/// Lazy DFA cache of a set, at its most, per thread that uses it.
pub const DFA_CACHE: usize = 32 << 20;
/// What a set's lazy DFA cache is counted as in `memory_usage`: it grows only as matching
/// visits new states, up to `DFA_CACHE` per thread that matches with the set. A capacity
/// sized to the member count instead (2 MiB for the crawler list's 23 regexes) made
/// `scanLines` over varied log lines markedly slower: the cache thrashed.
pub const SET_CACHE_TYPICAL: usize = 2 << 20;

/// What an NFA budget (`PATTERN_SIZE`, `SET_SIZE`) is given to regex-automata as, on this
/// target. The budgets are what a pattern compiles to on a 64-bit machine; regex-automata
/// counts an NFA's states at pointer width (32 bytes each on 64-bit, 16 on 32-bit) and their
/// transitions at a fixed size, so on a 32-bit target (wasm32) the same pattern counts a bit
/// over half its 64-bit bytes: measured with regex-automata 0.4.19 on i686, the smallest
/// limit a meta regex builds under is 0.540 of the 64-bit one for `\w{85}`, `\p{L}{30}` and
/// `(\w){70}`, 0.528 for `\d{500}`, 0.520 for `.{200}`, 0.555 for `[a-z]{300}`. There the
/// limit is 17/32 (0.531) of the budget, so a pattern refused on 64-bit is refused there too
/// unless it is within about 2% of the budget, and one accepted is accepted unless it is
/// within about 5% (docs/deploy.md says so). What is summed as heap bytes (a set's members
/// together, `RegexGroup::new`) is not scaled: those bytes are mostly not pointers.
pub const fn nfa_limit(budget: usize) -> usize {
    budget / 32 * THIRTY_SECONDS
}

#[cfg(target_pointer_width = "64")]
const THIRTY_SECONDS: usize = 32;
#[cfg(not(target_pointer_width = "64"))]
const THIRTY_SECONDS: usize = 17;

/// An NFA limit's budget, in the MiB a caller is told: the same on every target.
pub fn budget_mib(limit: usize) -> usize {
    (limit / THIRTY_SECONDS * 32) >> 20
}

/// A compile failure: the offending pattern's index when it is one pattern's fault.
#[derive(Debug)]
pub struct CompileError {
    pub pattern: Option<u32>,
    pub message: String,
}

/// Each source parsed alone (a parser reused keeps the flags one source set at its top
/// level, `(?i)`, for the next), as `syntax_config` reads it.
pub fn parse(sources: &[&str]) -> Result<Vec<Hir>, CompileError> {
    sources
        .iter()
        .map(|source| {
            syntax::parse_with(source, &syntax_config())
                .map_err(|e| CompileError { pattern: None, message: e.to_string() })
        })
        .collect()
}

/// The configuration of a multi-pattern set.
pub fn set_config() -> meta::Config {
    Regex::config()
        .match_kind(MatchKind::All)
        .utf8_empty(false)
        .which_captures(regex_automata::nfa::thompson::WhichCaptures::None)
        .nfa_size_limit(Some(nfa_limit(SET_SIZE)))
        .onepass_size_limit(Some(SET_SIZE))
        .hybrid_cache_capacity(DFA_CACHE)
}

/// Byte-oriented syntax (a pattern may match invalid UTF-8), as `regex::bytes` reads it.
pub fn syntax_config() -> syntax::Config {
    syntax::Config::new().utf8(false)
}

/// The build error in words a caller can act on.
pub fn message(e: &meta::BuildError) -> String {
    match (e.size_limit(), e.syntax_error()) {
        (Some(limit), _) => format!("it compiles to more than the {} MiB budget", budget_mib(limit)),
        // The parser's own words, without its multi-line rendering of the pattern.
        (None, Some(syntax)) => match syntax {
            regex_syntax::Error::Parse(p) => p.kind().to_string(),
            regex_syntax::Error::Translate(t) => t.kind().to_string(),
            other => other.to_string(),
        },
        (None, None) => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callers_are_told_the_64_bit_budgets_on_every_target() {
        assert_eq!(budget_mib(nfa_limit(PATTERN_SIZE)), 4);
        assert_eq!(budget_mib(nfa_limit(SET_SIZE)), 32);
        let refused = Regex::builder()
            .configure(Regex::config().nfa_size_limit(Some(nfa_limit(PATTERN_SIZE))))
            .build(r"\w{200}")
            .unwrap_err();
        assert_eq!(message(&refused), "it compiles to more than the 4 MiB budget");
    }
}
