//! Look-ahead anywhere, by automaton: the texts a JavaScript pattern `test`s true on, as a DFA
//! and then as a plain regular expression with no look-around at all.
//!
//! A look-ahead at a position is an *obligation* on the text after it: its body must (or, when
//! negative, must not) match a prefix of what follows. A thread of the pattern's NFA carries
//! its pending obligations, each a set of the body's own threads (which carry theirs), and
//! every character advances them in lockstep. A positive obligation is met once its body
//! reaches its end and dropped; it kills the thread when its body has no thread left. A
//! negative one is the other way round. The subset construction over such threads is finite:
//! it gives a DFA, minimised, and state elimination turns that back into a regex. Every step
//! has a budget, so a pattern whose automaton would be too large is refused by name rather
//! than built.
//!
//! Used where a pattern's look-aheads sit where the edge-only rewriting of `mod.rs` cannot
//! reach them: picomatch's regexes (`(?!\.)` before a segment, `(?:(?!(?:^|\/)\.).)*?` for
//! `**`, `^(?!…).*$` for a negated glob).

use super::charset::{CaseFlags, CharSet};
use super::parse::{Node, MAX_DEPTH};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Most DFA states a pattern may need.
pub const MAX_STATES: usize = 4096;
/// Most NFA states (a repetition count is unrolled).
const MAX_NFA: usize = 20_000;
/// Most steps of the construction (closures, moves), a bound on compile time.
const MAX_WORK: usize = 2_000_000;
/// Most nodes in the regex that state elimination writes.
const MAX_NODES: usize = 200_000;
/// Deepest nesting of look-aheads inside look-ahead bodies.
const MAX_NESTING: usize = 16;

const MATCH: u32 = 0;

enum St {
    Set(CharSet, u32),
    Split(Vec<u32>),
    Start(u32),
    End(u32),
    Look { negative: bool, body: u32, next: u32 },
    Match,
}

/// A place in the NFA and the obligations it still owes.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Thread {
    q: u32,
    obs: Vec<Ob>,
}

/// A look-ahead still undecided: its body's threads (sorted, distinct).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Ob {
    negative: bool,
    threads: Vec<Thread>,
}

#[derive(Clone, Copy)]
struct Ctx {
    start: bool,
    end: bool,
}

enum Outcome {
    Accepts,
    Dead,
    Pending(Vec<Thread>),
}

struct Builder {
    st: Vec<St>,
    mode: CaseFlags,
    work: usize,
}

fn too_complex() -> String {
    format!("its look-aheads need an automaton of more than {MAX_STATES} states, or too long to build (a glob or look-ahead this complex is refused)")
}

impl Builder {
    fn push(&mut self, s: St) -> Result<u32, String> {
        if self.st.len() >= MAX_NFA {
            return Err(format!("it is too large to compile with look-ahead: more than {MAX_NFA} automaton states"));
        }
        self.st.push(s);
        Ok(self.st.len() as u32 - 1)
    }

    fn tick(&mut self, n: usize) -> Result<(), String> {
        self.work += n;
        if self.work > MAX_WORK {
            return Err(too_complex());
        }
        Ok(())
    }

    /// The NFA of `node`, continuing to `next`; returns its entry.
    fn compile(&mut self, node: &Node, next: u32, depth: usize) -> Result<u32, String> {
        Ok(match node {
            Node::Empty => next,
            Node::Char(c) => {
                let set = CharSet::one(*c);
                let set = if self.mode.ignore_case { set.case_closure(self.mode) } else { set };
                self.push(St::Set(set, next))?
            }
            Node::Set(s) => self.push(St::Set(s.clone(), next))?,
            Node::Seq(items) => {
                let mut n = next;
                for item in items.iter().rev() {
                    n = self.compile(item, n, depth)?;
                }
                n
            }
            Node::Alt(alts) => {
                let entries = alts.iter().map(|a| self.compile(a, next, depth)).collect::<Result<Vec<_>, _>>()?;
                self.push(St::Split(entries))?
            }
            Node::Repeat { node, min, max, .. } => {
                let mut n = next;
                match max {
                    None => {
                        let split = self.push(St::Split(Vec::new()))?;
                        let body = self.compile(node, split, depth)?;
                        self.st[split as usize] = St::Split(vec![body, next]);
                        n = split;
                    }
                    Some(max) => {
                        for _ in *min..*max {
                            let body = self.compile(node, n, depth)?;
                            n = self.push(St::Split(vec![body, n]))?;
                        }
                    }
                }
                for _ in 0..*min {
                    n = self.compile(node, n, depth)?;
                }
                n
            }
            Node::TextStart => self.push(St::Start(next))?,
            Node::TextEnd => self.push(St::End(next))?,
            Node::LineStart | Node::LineEnd => return Err("'^' and '$' with the m flag are not supported here".into()),
            Node::WordBoundary { .. } => return Err(r"\b and \B are not supported here".into()),
            Node::Look { ahead: false, .. } => return Err("look-behind is not supported here".into()),
            Node::Look { ahead: true, negative, body } => {
                if depth >= MAX_NESTING {
                    return Err(format!("look-aheads nest more than {MAX_NESTING} deep"));
                }
                let body = self.compile(body, MATCH, depth + 1)?;
                self.push(St::Look { negative: *negative, body, next })?
            }
        })
    }

    /// Decides a look-ahead whose body's threads are `threads` at this position.
    fn eval(&mut self, threads: &[Thread], ctx: Ctx) -> Result<Outcome, String> {
        let closed = self.close(threads, ctx)?;
        Ok(if closed.iter().any(|t| t.q == MATCH && t.obs.is_empty()) {
            Outcome::Accepts
        } else if closed.is_empty() || ctx.end {
            Outcome::Dead
        } else {
            Outcome::Pending(closed)
        })
    }

    /// Settles obligations at this position: `None` when one kills the thread.
    fn settle(&mut self, obs: &[Ob], ctx: Ctx) -> Result<Option<Vec<Ob>>, String> {
        let mut out = Vec::with_capacity(obs.len());
        for ob in obs {
            match (self.eval(&ob.threads, ctx)?, ob.negative) {
                (Outcome::Accepts, false) | (Outcome::Dead, true) => {}
                (Outcome::Accepts, true) | (Outcome::Dead, false) => return Ok(None),
                (Outcome::Pending(threads), negative) => out.push(Ob { negative, threads }),
            }
        }
        out.sort();
        out.dedup();
        Ok(Some(out))
    }

    /// The threads reachable from `kernel` without reading a character, each at a character
    /// set or at the end of its pattern, with its obligations settled.
    fn close(&mut self, kernel: &[Thread], ctx: Ctx) -> Result<Vec<Thread>, String> {
        let mut out = BTreeSet::new();
        let mut seen: HashSet<Thread> = HashSet::new();
        for t in kernel {
            let Some(obs) = self.settle(&t.obs, ctx)? else { continue };
            let mut stack = vec![Thread { q: t.q, obs }];
            while let Some(t) = stack.pop() {
                self.tick(1 + t.obs.len())?;
                if !seen.insert(t.clone()) {
                    continue;
                }
                match &self.st[t.q as usize] {
                    St::Set(..) | St::Match => {
                        out.insert(t);
                    }
                    St::Split(next) => {
                        for &n in next.iter().rev() {
                            stack.push(Thread { q: n, obs: t.obs.clone() });
                        }
                    }
                    St::Start(n) => {
                        if ctx.start {
                            stack.push(Thread { q: *n, obs: t.obs });
                        }
                    }
                    St::End(n) => {
                        if ctx.end {
                            stack.push(Thread { q: *n, obs: t.obs });
                        }
                    }
                    &St::Look { negative, body, next } => {
                        let start = [Thread { q: body, obs: Vec::new() }];
                        let mut obs = t.obs;
                        match (self.eval(&start, ctx)?, negative) {
                            (Outcome::Accepts, false) | (Outcome::Dead, true) => {}
                            (Outcome::Accepts, true) | (Outcome::Dead, false) => continue,
                            (Outcome::Pending(threads), negative) => {
                                obs.push(Ob { negative, threads });
                                obs.sort();
                                obs.dedup();
                            }
                        }
                        stack.push(Thread { q: next, obs });
                    }
                }
            }
        }
        Ok(out.into_iter().collect())
    }

    /// Reads one character `c`: closed threads to the kernel after it.
    fn step(&mut self, closed: &[Thread], c: u32) -> Result<Vec<Thread>, String> {
        let mut out = Vec::new();
        for t in closed {
            self.tick(1)?;
            let q = match &self.st[t.q as usize] {
                St::Set(s, next) if s.contains(c) => *next,
                St::Match => MATCH,
                _ => continue,
            };
            if let Some(obs) = self.step_obs(&t.obs, c)? {
                out.push(Thread { q, obs });
            }
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    fn step_obs(&mut self, obs: &[Ob], c: u32) -> Result<Option<Vec<Ob>>, String> {
        let mut out = Vec::with_capacity(obs.len());
        for ob in obs {
            let threads = self.step(&ob.threads, c)?;
            if threads.is_empty() {
                if ob.negative {
                    continue;
                }
                return Ok(None);
            }
            out.push(Ob { negative: ob.negative, threads });
        }
        out.sort();
        out.dedup();
        Ok(Some(out))
    }
}

/// The classes of characters no set of the NFA tells apart (plus `extra`, kept apart).
fn classes(st: &[St], max: u32, extra: &[CharSet]) -> Result<Vec<CharSet>, String> {
    let mut sets: Vec<&CharSet> =
        st.iter().filter_map(|s| if let St::Set(s, _) = s { Some(s) } else { None }).collect();
    sets.extend(extra);
    sets.sort_by(|a, b| a.ranges().cmp(b.ranges()));
    sets.dedup();
    let mut cuts: Vec<u32> = vec![0, max + 1];
    for s in &sets {
        for &(lo, hi) in s.ranges() {
            cuts.push(lo.min(max + 1));
            cuts.push(hi.saturating_add(1).min(max + 1));
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    if (cuts.len() as u64) * (sets.len() as u64) > 20_000_000 {
        return Err(too_complex());
    }
    let mut by_signature: HashMap<Vec<bool>, Vec<(u32, u32)>> = HashMap::new();
    let mut order = Vec::new();
    for w in cuts.windows(2) {
        let (lo, hi) = (w[0], w[1] - 1);
        let sig: Vec<bool> = sets.iter().map(|s| s.contains(lo)).collect();
        let entry = by_signature.entry(sig.clone()).or_default();
        if entry.is_empty() {
            order.push(sig);
        }
        entry.push((lo, hi));
    }
    Ok(order.into_iter().map(|sig| CharSet::from_ranges(by_signature.remove(&sig).unwrap_or_default())).collect())
}

/// The automaton of the texts `node` (a whole pattern, searched for anywhere as `test` does)
/// matches. `apart`: sets kept as classes of their own (so a caller can drop their edges).
pub fn automaton(node: &Node, mode: CaseFlags, apart: &[CharSet]) -> Result<Automaton, String> {
    let max = mode.max();
    let mut b = Builder { st: vec![St::Match], mode, work: 0 };
    let pattern = b.compile(node, MATCH, 0)?;
    // `test` tries every start: a loop over any character before the pattern.
    let any = b.push(St::Set(CharSet::from_ranges([(0, max)]), 0))?;
    let search = b.push(St::Split(vec![pattern, any]))?;
    b.st[any as usize] = St::Set(CharSet::from_ranges([(0, max)]), search);
    let classes = classes(&b.st, max, apart)?;

    // State 1 is "matched already": every text that extends it matches too.
    const MATCHED: u32 = 1;
    let mut ids: HashMap<(bool, Thread), u32> = HashMap::new();
    let first = (true, Thread { q: search, obs: Vec::new() });
    ids.insert(first.clone(), 0);
    let mut kernels: Vec<Option<(bool, Thread)>> = vec![Some(first), None];
    let mut edges: Vec<Vec<(usize, u32)>> = Vec::new();
    let mut accept = Vec::new();
    let mut i = 0;
    while i < kernels.len() {
        let Some((start, kernel)) = kernels[i].clone() else {
            edges.push((0..classes.len()).map(|c| (c, MATCHED)).collect());
            accept.push(true);
            i += 1;
            continue;
        };
        let kernel = [kernel];
        let closed = b.close(&kernel, Ctx { start, end: false })?;
        if closed.iter().any(|t| t.q == MATCH && t.obs.is_empty()) {
            edges.push((0..classes.len()).map(|c| (c, MATCHED)).collect());
            accept.push(true);
            i += 1;
            continue;
        }
        let at_end = b.close(&kernel, Ctx { start, end: true })?;
        accept.push(at_end.iter().any(|t| t.q == MATCH && t.obs.is_empty()));
        let mut row = Vec::new();
        for t in &closed {
            for (c, class) in classes.iter().enumerate() {
                for k in b.step(std::slice::from_ref(t), class.ranges()[0].0)? {
                    let key = (false, k);
                    let id = match ids.get(&key) {
                        Some(&id) => id,
                        None => {
                            if kernels.len() >= MAX_STATES {
                                return Err(too_complex());
                            }
                            let id = kernels.len() as u32;
                            ids.insert(key.clone(), id);
                            kernels.push(Some(key));
                            id
                        }
                    };
                    row.push((c, id));
                }
            }
        }
        row.sort_unstable();
        row.dedup();
        edges.push(row);
        i += 1;
    }
    Ok(Automaton { classes, edges, accept })
}

/// An automaton over the classes of characters the pattern tells apart: state 0 is the start
/// (the empty text), and no edge leads back to it.
/// An edge of an automaton: (class, next state).
type Edge = (usize, u32);

pub struct Automaton {
    pub classes: Vec<CharSet>,
    /// Per state: (class, next state).
    pub edges: Vec<Vec<Edge>>,
    pub accept: Vec<bool>,
}

impl Automaton {
    /// The same language with only the states on some path from the start to an accepting
    /// one; state 0 stays the start.
    pub fn trim(&self) -> Automaton {
        let n = self.accept.len();
        let mut live: Vec<bool> = self.accept.clone();
        loop {
            let mut changed = false;
            for s in 0..n {
                if !live[s] && self.edges[s].iter().any(|&(_, t)| live[t as usize]) {
                    live[s] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut id: HashMap<u32, u32> = HashMap::from([(0, 0)]);
        let mut order = vec![0u32];
        let mut k = 0;
        while k < order.len() {
            for &(_, t) in &self.edges[order[k] as usize] {
                if live[t as usize] && !id.contains_key(&t) {
                    id.insert(t, order.len() as u32);
                    order.push(t);
                }
            }
            k += 1;
        }
        Automaton {
            classes: self.classes.clone(),
            edges: order
                .iter()
                .map(|&s| self.edges[s as usize].iter().filter_map(|&(c, t)| Some((c, *id.get(&t)?))).collect())
                .collect(),
            accept: order.iter().map(|&s| self.accept[s as usize]).collect(),
        }
    }

    /// The same language with states that answer alike made one: two states with the same
    /// acceptance and the same edges (class, target) accept the same texts, so the edges into
    /// one may lead to the other; repeated until no two are alike, then trimmed. The automaton
    /// reads look-around by threads, and reaches one place of the pattern by as many states
    /// as there were ways to it: without this, a glob of n `*` segments had two alike states
    /// a segment, and state elimination wrote a regex that doubled with each.
    pub fn merged(&self) -> Automaton {
        let n = self.edges.len();
        let mut edges = self.edges.clone();
        // Whether a state is still its own (not made one with another).
        let mut own = vec![true; n];
        loop {
            // (acceptance, edges) → the first state that has them.
            let mut first: HashMap<(bool, &[Edge]), u32> = HashMap::new();
            let mut to: Vec<u32> = (0..n as u32).collect();
            // State 0 is the start, and no edge leads back to it: it is never made another's.
            for s in (1..n).filter(|&s| own[s]) {
                match first.get(&(self.accept[s], edges[s].as_slice())) {
                    Some(&r) => to[s] = r,
                    None => {
                        first.insert((self.accept[s], edges[s].as_slice()), s as u32);
                    }
                }
            }
            if to.iter().enumerate().all(|(s, &r)| r == s as u32) {
                break;
            }
            for (s, &r) in to.iter().enumerate() {
                own[s] &= r == s as u32;
            }
            for row in &mut edges {
                for e in row.iter_mut() {
                    e.1 = to[e.1 as usize];
                }
                row.sort_unstable();
                row.dedup();
            }
        }
        Automaton { classes: self.classes.clone(), edges, accept: self.accept.clone() }.trim()
    }

    /// A regex (no look-around, no anchors) matching exactly the texts the automaton accepts, by
    /// state elimination. `Set` of nothing when it accepts none.
    pub fn to_node(&self) -> Result<Node, String> {
        let a = self.merged();
        let n = a.accept.len() as u32;
        let (s0, fin) = (n, n + 1);
        let mut g = Graph::default();
        g.add(s0, 0, Node::Empty);
        for s in 0..n {
            if a.accept[s as usize] {
                g.add(s, fin, Node::Empty);
            }
            for &(c, t) in &a.edges[s as usize] {
                g.add(s, t, Node::Set(a.classes[c].clone()));
            }
        }
        // The state whose removal writes the fewest new edges goes first (a queue by that
        // count, updated as neighbours change: a scan per step made long chains quadratic).
        let mut current: HashMap<u32, usize> = (0..n).map(|r| (r, g.degree(r))).collect();
        let mut queue: BTreeSet<(usize, u32)> = current.iter().map(|(&r, &d)| (d, r)).collect();
        while let Some((_, r)) = queue.pop_first() {
            current.remove(&r);
            let ps: Vec<u32> = g.pred.remove(&r).unwrap_or_default().into_iter().filter(|&p| p != r).collect();
            let qs: Vec<u32> = g.succ.remove(&r).unwrap_or_default().into_iter().filter(|&q| q != r).collect();
            let looped = g.edge.remove(&(r, r)).map(star);
            let mut outs: Vec<Node> = qs.iter().map(|&q| g.edge.remove(&(r, q)).unwrap_or(Node::Empty)).collect();
            for &q in &qs {
                if let Some(p) = g.pred.get_mut(&q) {
                    p.remove(&r);
                }
            }
            let mut size = 0;
            for (pi, &p) in ps.iter().enumerate() {
                let mut into = g.edge.remove(&(p, r)).unwrap_or(Node::Empty);
                if let Some(s) = g.succ.get_mut(&p) {
                    s.remove(&r);
                }
                for (qi, &q) in qs.iter().enumerate() {
                    // The last use of an edge takes it; only the others copy it.
                    let head =
                        if qi + 1 == qs.len() { std::mem::replace(&mut into, Node::Empty) } else { into.clone() };
                    let tail = if pi + 1 == ps.len() {
                        std::mem::replace(&mut outs[qi], Node::Empty)
                    } else {
                        outs[qi].clone()
                    };
                    let mut path = head;
                    if let Some(l) = &looped {
                        path = seq(path, l.clone());
                    }
                    path = seq(path, tail);
                    size += node_size(&path);
                    // Cloning and dropping a node recurse through it: keep it shallow.
                    if size > MAX_NODES || node_depth(&path) > MAX_DEPTH {
                        return Err(too_complex());
                    }
                    g.add(p, q, path);
                }
            }
            for &x in ps.iter().chain(&qs) {
                if let Some(old) = current.get(&x).copied() {
                    let new = g.degree(x);
                    queue.remove(&(old, x));
                    queue.insert((new, x));
                    current.insert(x, new);
                }
            }
        }
        let out = g.edge.remove(&(s0, fin)).unwrap_or(Node::Set(CharSet::empty()));
        if node_size(&out) > MAX_NODES || node_depth(&out) > MAX_DEPTH {
            return Err(too_complex());
        }
        Ok(out)
    }
}

/// The edges of state elimination: a regex per (from, to), and each state's neighbours.
#[derive(Default)]
struct Graph {
    edge: HashMap<(u32, u32), Node>,
    succ: BTreeMap<u32, BTreeSet<u32>>,
    pred: BTreeMap<u32, BTreeSet<u32>>,
}

impl Graph {
    /// Adds `r` as an alternative on the edge `p → q`.
    fn add(&mut self, p: u32, q: u32, r: Node) {
        let e = match self.edge.remove(&(p, q)) {
            Some(old) => alt(old, r),
            None => r,
        };
        self.edge.insert((p, q), e);
        self.succ.entry(p).or_default().insert(q);
        self.pred.entry(q).or_default().insert(p);
    }

    /// New edges that removing `r` writes: its predecessors times its successors.
    fn degree(&self, r: u32) -> usize {
        let i = self.pred.get(&r).map_or(0, |p| p.iter().filter(|&&p| p != r).count());
        let o = self.succ.get(&r).map_or(0, |s| s.iter().filter(|&&q| q != r).count());
        i * o
    }
}

/// Nesting of a node (every pass over the tree recurses this deep).
fn node_depth(node: &Node) -> usize {
    match node {
        Node::Seq(v) | Node::Alt(v) => 1 + v.iter().map(node_depth).max().unwrap_or(0),
        Node::Repeat { node, .. } => 1 + node_depth(node),
        _ => 1,
    }
}

/// Nodes in a node, counted as the regex written from it grows.
pub fn node_size(node: &Node) -> usize {
    match node {
        Node::Seq(v) | Node::Alt(v) => 1 + v.iter().map(node_size).sum::<usize>(),
        Node::Repeat { node, .. } => 1 + node_size(node),
        _ => 1,
    }
}

pub fn seq(a: Node, b: Node) -> Node {
    let mut items = Vec::new();
    for x in [a, b] {
        match x {
            Node::Empty => {}
            Node::Seq(v) => items.extend(v),
            other => items.push(other),
        }
    }
    match items.len() {
        0 => Node::Empty,
        1 => items.pop().unwrap_or(Node::Empty),
        _ => Node::Seq(items),
    }
}

pub fn alt(a: Node, b: Node) -> Node {
    let mut items: Vec<Node> = Vec::new();
    let mut set: Option<CharSet> = None;
    for x in [a, b] {
        let parts = match x {
            Node::Alt(v) => v,
            other => vec![other],
        };
        for p in parts {
            match p {
                Node::Set(s) => set = Some(set.map_or(s.clone(), |t| t.union(&s))),
                other if !items.contains(&other) => items.push(other),
                _ => {}
            }
        }
    }
    if let Some(s) = set {
        items.push(Node::Set(s));
    }
    match items.len() {
        1 => items.pop().unwrap_or(Node::Empty),
        _ => Node::Alt(items),
    }
}

fn star(a: Node) -> Node {
    let inner = match a {
        Node::Alt(v) => {
            let v: Vec<Node> = v.into_iter().filter(|x| *x != Node::Empty).collect();
            match v.len() {
                0 => return Node::Empty,
                1 => v.into_iter().next().unwrap_or(Node::Empty),
                _ => Node::Alt(v),
            }
        }
        Node::Empty => return Node::Empty,
        r @ Node::Repeat { min: 0, max: None, .. } => return r,
        other => other,
    };
    Node::Repeat { node: Box::new(inner), min: 0, max: None, greedy: true }
}

#[cfg(test)]
mod tests {
    use super::super::parse::{parse, Flags};
    use super::*;

    /// Whether the DFA of `source` accepts `text` (as UTF-16 units).
    fn accepts(source: &str, flags: &str, text: &str) -> bool {
        let flags = Flags::parse(flags).unwrap();
        let a = automaton(&parse(source, flags).unwrap(), flags.mode(), &[]).unwrap().trim();
        let mut states = BTreeSet::from([0u32]);
        for u in text.encode_utf16() {
            let c = a.classes.iter().position(|c| c.contains(u32::from(u))).unwrap();
            states =
                states.iter().flat_map(|&s| a.edges[s as usize].iter().filter(|e| e.0 == c).map(|e| e.1)).collect();
        }
        states.iter().any(|&s| a.accept[s as usize])
    }

    #[test]
    fn look_ahead_anywhere_means_what_it_means_in_javascript() {
        let star = r"^(?:(?!\.)(?=.)[^/]*?\.js\/?)$";
        for (text, want) in [("a.js", true), (".a.js", false), ("x/a.js", false), ("a.js/", true), (".js", false)] {
            assert_eq!(accepts(star, "", text), want, "{star} on {text}");
        }
        let globstar = r"^(?:(?!\.)(?:(?:(?!(?:^|\/)\.).)*?)\/?)$";
        for (text, want) in [("a/b", true), ("a/.b", false), (".a", false), ("a//b", true), ("a/b\nc", false)] {
            assert_eq!(accepts(globstar, "", text), want, "{globstar} on {text:?}");
        }
        let negated = r"^(?!^(?:(?!\.)(?=.)[^/]*?\.js\/?)$).*$";
        for (text, want) in [("a.js", false), ("a.ts", true), (".a.js", true), ("a\nb", false), ("", true)] {
            assert_eq!(accepts(negated, "", text), want, "{negated} on {text:?}");
        }
        assert!(accepts("a(?=bc)", "i", "xABC"));
        assert!(!accepts("a(?=bc)", "i", "xABD"));
        assert!(accepts("a(?!b(?!c))", "", "abc"));
        assert!(!accepts("a(?!b(?!c))", "", "abd"));
    }

    #[test]
    fn state_elimination_gives_back_the_language() {
        let flags = Flags::default();
        let a = automaton(&parse(r"^(?:(?!\.)[^/]*\/b)$", flags).unwrap(), flags.mode(), &[]).unwrap().trim();
        let node = a.to_node().unwrap();
        let back = super::super::translate_node(Node::Seq(vec![Node::TextStart, node, Node::TextEnd]), flags).unwrap();
        let re = regex::bytes::Regex::new(&back.exists).unwrap();
        for (text, want) in [("a/b", true), (".a/b", false), ("/b", true), ("a/bc", false), ("a/x/b", false)] {
            assert_eq!(re.is_match(text.as_bytes()), want, "{text}");
        }
    }

    #[test]
    fn a_pattern_too_large_for_the_budget_is_refused() {
        let flags = Flags::default();
        // A look-ahead body is followed as a set of threads: here 2^15 of them.
        let e = automaton(&parse("^(?=[ab]*a[ab]{14}$)", flags).unwrap(), flags.mode(), &[]).err().unwrap();
        assert!(e.contains("automaton"), "{e}");
    }
}
