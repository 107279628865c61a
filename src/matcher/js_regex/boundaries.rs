//! `\b` and `\B` with the flags `i` and `u`, as V8 means them: with both flags, ſ (U+017F)
//! and K (U+212A) fold into the basic word characters, so they are word characters too, and
//! the regex engine's ASCII `\b` would be wrong next to them. At the edges of an alternative
//! a boundary becomes look-around on the word set, which the translator runs as it runs any
//! (a look-behind checked at each start, a look-ahead consumed):
//!
//! - leading, `\bX…`: X's first character set is split into its word and non-word parts,
//!   `(?<!W)Xw… | (?<=W)Xn…` (`\B`: the other way round). At one position the character
//!   before decides which branch can match, so the split changes no answer;
//! - trailing, `…X\b`: `…X(?!W)` when X's characters are all word characters, `…X(?=W)` when
//!   none is; a mixed set is split too, but only in an alternative of fixed length (with a
//!   variable part before it, JS's backtracking and an alternation would prefer different
//!   lengths);
//! - alone, `\b`: `(?<!W)(?=W) | (?<=W)(?!W)`.
//!
//! - inside, `X\bY`: the two sides' characters split by kind (`interior`), no look-around.
//!
//! X and Y are each a character, a class, or a repetition of one at least once. Anything
//! else (a boundary next to a group, or next to another boundary) is refused with `WHERE`.

use super::charset::{CaseFlags, CharSet};
use super::parse::{class_escape, Node};

/// Why a boundary is refused.
pub const WHERE: &str = r"\b and \B with the flags i and u are supported only next to a character, a class or its repetition, on both sides inside an alternative (e.g. /\bcafé\b/iu, /\w\b-/iu)";

/// The branches one alternative becomes (itself, when it has no boundary at an edge).
pub fn expand(alternative: Node, mode: CaseFlags) -> Result<Vec<Node>, String> {
    let mut core = match alternative {
        Node::Seq(items) => items,
        Node::Empty => vec![],
        other => vec![other],
    };
    let boundary = |n: Option<&Node>| match n {
        Some(Node::WordBoundary { negated }) => Some(*negated),
        _ => None,
    };
    let word = class_escape('w', mode).ok_or(WHERE)?.case_closure(mode);
    core = interior(core, &word, mode)?;
    let lead = boundary(core.first());
    if lead.is_some() {
        core.remove(0);
    }
    let trail = boundary(core.last());
    if trail.is_some() {
        core.pop();
    }
    if lead.is_none() && trail.is_none() {
        return Ok(vec![Node::Seq(core)]);
    }
    // A look-around on the word set: behind or ahead, that a word character is there or not.
    let look =
        |ahead: bool, is_word: bool| Node::Look { ahead, negative: !is_word, body: Box::new(Node::Set(word.clone())) };
    // Whether a boundary (`\b`, or `\B` when `negated`) holds between these two sides.
    let holds = |negated: bool, before: bool, after: bool| (before != after) != negated;
    if core.is_empty() {
        // Boundaries alone, at one position: every (before, after) they all hold for.
        let mut out = Vec::new();
        for before in [true, false] {
            for after in [true, false] {
                if [lead, trail].into_iter().flatten().all(|negated| holds(negated, before, after)) {
                    out.push(Node::Seq(vec![look(false, before), look(true, after)]));
                }
            }
        }
        if out.is_empty() {
            // `\b\B`: nowhere (a set of no character).
            out.push(Node::Set(CharSet::empty()));
        }
        return Ok(out);
    }
    let mut variants = Vec::new();
    match trail {
        None => variants.push(core),
        Some(negated) => {
            let set = first_set(core.last(), mode).ok_or(WHERE)?;
            // After a word character, `\b` needs a non-word one next (`\B`, a word one).
            let after = |is_word: bool| look(true, holds(negated, is_word, true));
            let (w, n) = (set.intersect(&word), set.minus(&word));
            if n.is_empty() || w.is_empty() {
                let mut v = core;
                v.push(after(n.is_empty()));
                variants.push(v);
            } else if fixed_length(&core) {
                for (part, is_word) in [(w, true), (n, false)] {
                    let mut v = core.clone();
                    replace_last(&mut v, part);
                    v.push(after(is_word));
                    variants.push(v);
                }
            } else {
                return Err(WHERE.into());
            }
        }
    }
    let Some(negated) = lead else { return Ok(variants.into_iter().map(Node::Seq).collect()) };
    let mut out = Vec::new();
    for v in variants {
        let set = first_set(v.first(), mode).ok_or(WHERE)?;
        for (part, is_word) in [(set.intersect(&word), true), (set.minus(&word), false)] {
            if part.is_empty() {
                continue;
            }
            let mut b = v.clone();
            replace_first(&mut b, part);
            // Before a word character, `\b` needs a non-word one behind (`\B`, a word one).
            b.insert(0, look(false, holds(negated, true, is_word)));
            out.push(Node::Seq(b));
        }
    }
    Ok(out)
}

/// `items` with each boundary between two elements made a choice of the two sides' kinds:
/// `X\bY` is `X'(?:[x∩W][y∖W]|[x∖W][y∩W])Y'`, X' and Y' what is left of X and Y once their
/// last and first character are taken (`\B`: the same kinds on both sides). Which branch
/// can match is decided by the character before, so the order JS tries things in is kept.
fn interior(items: Vec<Node>, word: &CharSet, mode: CaseFlags) -> Result<Vec<Node>, String> {
    let mut out: Vec<Node> = Vec::with_capacity(items.len());
    let mut rest = items.into_iter().peekable();
    let mut first = true;
    while let Some(item) = rest.next() {
        let Node::WordBoundary { negated } = item else {
            out.push(item);
            first = false;
            continue;
        };
        // At an edge: for the look-around of `expand`.
        if first || rest.peek().is_none() {
            out.push(item);
            first = false;
            continue;
        }
        let before = out.pop().ok_or(WHERE)?;
        let after = rest.next().ok_or(WHERE)?;
        let x = first_set(Some(&before), mode).ok_or(WHERE)?;
        let y = first_set(Some(&after), mode).ok_or(WHERE)?;
        // What is left of each side once its character next to the boundary is taken.
        let left = rest_of(before);
        let right = rest_of(after);
        let mut branches = Vec::new();
        for x_word in [true, false] {
            let xs = if x_word { x.intersect(word) } else { x.minus(word) };
            // `\b`: the other kind after; `\B`: the same.
            let y_word = x_word == negated;
            let ys = if y_word { y.intersect(word) } else { y.minus(word) };
            if !xs.is_empty() && !ys.is_empty() {
                branches.push(Node::Seq(vec![Node::Set(xs), Node::Set(ys)]));
            }
        }
        out.extend(left);
        out.push(match branches.len() {
            0 => Node::Set(CharSet::empty()),
            1 => branches.pop().unwrap_or(Node::Empty),
            _ => Node::Alt(branches),
        });
        out.extend(right);
    }
    Ok(out)
}

/// A character, class or repetition with one character taken (from either end: the rest
/// is the same), as `first_set` reads it: nothing, or the repetition once less.
fn rest_of(node: Node) -> Vec<Node> {
    match node {
        Node::Repeat { node, min, max, greedy } if max != Some(1) => {
            vec![Node::Repeat { node, min: min - 1, max: max.map(|m| m - 1), greedy }]
        }
        _ => vec![],
    }
}

/// The set a character or class node stands for (case-closed, as the translator folds it).
fn set_of(node: &Node, mode: CaseFlags) -> Option<CharSet> {
    match node {
        Node::Char(c) => {
            let set = CharSet::one(*c);
            Some(if mode.ignore_case { set.case_closure(mode) } else { set })
        }
        Node::Set(s) => Some(s.clone()),
        _ => None,
    }
}

fn first_set(node: Option<&Node>, mode: CaseFlags) -> Option<CharSet> {
    match node? {
        Node::Repeat { node, min, .. } if *min >= 1 => set_of(node, mode),
        other => set_of(other, mode),
    }
}

/// `items` with its first element's first character restricted to `part`.
fn replace_first(items: &mut Vec<Node>, part: CharSet) {
    match items.remove(0) {
        Node::Repeat { node, min, max, greedy } => {
            items.insert(0, Node::Set(part));
            if max != Some(1) {
                let rest = Node::Repeat { node, min: min - 1, max: max.map(|m| m - 1), greedy };
                items.insert(1, rest);
            }
        }
        _ => items.insert(0, Node::Set(part)),
    }
}

/// `items` with its last element's last character restricted to `part`.
fn replace_last(items: &mut Vec<Node>, part: CharSet) {
    match items.pop() {
        Some(Node::Repeat { node, min, max, greedy }) if max != Some(1) => {
            items.push(Node::Repeat { node, min: min - 1, max: max.map(|m| m - 1), greedy });
            items.push(Node::Set(part));
        }
        _ => items.push(Node::Set(part)),
    }
}

/// Whether every match of `items` has the same length (so splitting its last character
/// cannot change which length is preferred).
fn fixed_length(items: &[Node]) -> bool {
    fn fixed(n: &Node) -> Option<u32> {
        match n {
            Node::Char(_) | Node::Set(_) => Some(1),
            Node::Empty | Node::TextStart | Node::TextEnd | Node::LineStart | Node::LineEnd => Some(0),
            Node::WordBoundary { .. } | Node::Look { .. } => Some(0),
            Node::Seq(v) => v.iter().try_fold(0u32, |acc, n| acc.checked_add(fixed(n)?)),
            Node::Alt(v) => {
                let first = fixed(v.first()?)?;
                v.iter().all(|n| fixed(n) == Some(first)).then_some(first)
            }
            Node::Repeat { node, min, max, .. } => (Some(*min) == *max).then(|| fixed(node)?.checked_mul(*min))?,
        }
    }
    items.iter().all(|n| fixed(n).is_some())
}
