//! A logo in the middle of a styled code: read from its file (PNG, JPEG, WebP, GIF or BMP,
//! size checked from the header before any pixel is decoded), then sized so that the
//! modules it hides stay within every Reed–Solomon block's budget (`qr::ec_budget`).

use super::spec::LogoSpec;
use crate::error::{Error, ErrorKind, Result};
use crate::qr::{ec_budget, EcLevel};

/// Most bytes a logo file may have.
pub const MAX_FILE_BYTES: usize = 16 << 20;
/// Most pixels a logo may have once decoded (refused from the header).
pub const MAX_PIXELS: u64 = 16_000_000;
/// The largest size a caller may give.
pub const MAX_SIZE: f64 = 0.5;
/// The size chosen at most when the caller gives none.
pub const DEFAULT_MAX_SIZE: f64 = 0.3;

/// Most elements and other XML nodes an SVG logo may have.
pub const MAX_SVG_NODES: u32 = 100_000;

/// A decoded logo: straight RGBA, row-major; or an SVG's parsed tree, drawn at whatever size
/// it is asked for.
#[derive(Clone, Debug)]
pub struct LogoImage {
    /// Pixels; for an SVG, its aspect on a longer side of `VECTOR_SIDE`.
    pub width: u32,
    pub height: u32,
    /// Empty for an SVG.
    pub rgba: Vec<u8>,
    pub vector: Option<std::sync::Arc<resvg::usvg::Tree>>,
    /// The file as given, with its MIME type, when it is small enough for an SVG to embed as
    /// it is (it decoded, so it is the image it claims to be); else SVG embeds a new PNG.
    pub original: Option<(&'static str, Vec<u8>)>,
}

impl LogoImage {
    /// The logo resized to `w × h` (straight RGBA), read in place: no copy of the pixels.
    pub fn resized(&self, w: u32, h: u32) -> Option<Vec<u8>> {
        if let Some(tree) = &self.vector {
            let pixmap = render_svg(tree, w, h)?;
            let straight = pixmap.pixels().iter().map(|p| p.demultiply());
            return Some(straight.flat_map(|c| [c.red(), c.green(), c.blue(), c.alpha()]).collect());
        }
        if (w, h) == (self.width, self.height) {
            return Some(self.rgba.clone());
        }
        let view = image::ImageBuffer::<image::Rgba<u8>, &[u8]>::from_raw(self.width, self.height, &self.rgba[..])?;
        Some(image::imageops::resize(&view, w, h, image::imageops::FilterType::Triangle).into_raw())
    }
}

/// Largest logo file an SVG embeds as given.
pub const EMBED_AS_GIVEN: usize = 64 << 10;

/// The longer side an SVG logo's `width` and `height` are given on (they say its aspect).
pub const VECTOR_SIDE: f64 = 1024.0;

/// `tree` drawn into a `w × h` pixmap (premultiplied), stretched to fill it: at most
/// `VECTOR_SIDE` on its longer side, then scaled up (the cost `svg_cost` bounded).
pub fn render_svg(tree: &resvg::usvg::Tree, w: u32, h: u32) -> Option<tiny_skia::Pixmap> {
    let size = tree.size();
    let long = w.max(h) as f64;
    if long > VECTOR_SIDE {
        let side = |v: u32| ((v as f64 * VECTOR_SIDE / long).round() as u32).max(1);
        let (rw, rh) = (side(w), side(h));
        let small = render_svg(tree, rw, rh)?;
        let mut pixmap = tiny_skia::Pixmap::new(w, h)?;
        let paint = tiny_skia::PixmapPaint { quality: tiny_skia::FilterQuality::Bilinear, ..Default::default() };
        let t = tiny_skia::Transform::from_scale(w as f32 / rw as f32, h as f32 / rh as f32);
        pixmap.draw_pixmap(0, 0, small.as_ref(), &paint, t, None);
        return Some(pixmap);
    }
    let mut pixmap = tiny_skia::Pixmap::new(w, h)?;
    let t = tiny_skia::Transform::from_scale(w as f32 / size.width(), h as f32 / size.height());
    resvg::render(tree, t, &mut pixmap.as_mut());
    Some(pixmap)
}

/// `decode`, keeping the file for SVG when it is at most `EMBED_AS_GIVEN` bytes (an SVG
/// logo as usvg writes it back: its entities expanded, its styles resolved, nothing in it
/// that refers outside it).
pub fn decode_for_embedding(file: &[u8]) -> Result<LogoImage> {
    let mut image = decode(file)?;
    if let Some(tree) = &image.vector {
        let text = tree.to_string(&resvg::usvg::WriteOptions::default());
        if text.len() <= EMBED_AS_GIVEN {
            image.original = Some(("image/svg+xml", text.into_bytes()));
        }
        return Ok(image);
    }
    if file.len() <= EMBED_AS_GIVEN {
        let mime = match image::guess_format(file) {
            Ok(image::ImageFormat::Png) => Some("image/png"),
            Ok(image::ImageFormat::Jpeg) => Some("image/jpeg"),
            Ok(image::ImageFormat::WebP) => Some("image/webp"),
            Ok(image::ImageFormat::Gif) => Some("image/gif"),
            _ => None,
        };
        image.original = mime.map(|m| (m, file.to_vec()));
    }
    Ok(image)
}

/// Logos decoded lately, most recent first: the file, what decoding it cost to hold, and
/// the image (`decode_for_embedding`'s, which serves every format).
struct Decoded {
    file: Box<[u8]>,
    bytes: usize,
    image: std::sync::Arc<LogoImage>,
}

/// Most logos `decode_cached` keeps.
pub const LOGO_CACHE_ENTRIES: usize = 8;
/// Most bytes the kept logos hold together (files, pixels, embeddable copies; an SVG's tree
/// counted as 8 bytes a byte of its file); a logo that alone would hold more than a quarter
/// of it is decoded every time.
pub const LOGO_CACHE_BYTES: usize = 32 << 20;

static DECODED: std::sync::Mutex<Vec<Decoded>> = std::sync::Mutex::new(Vec::new());

/// `decode_for_embedding`, from the logos decoded lately when `file` is one of them, byte
/// for byte: a server that puts its one logo on every code decodes it once. Failures are not
/// kept. Cost on a hit: comparing the file with the kept ones of its length.
pub fn decode_cached(file: &[u8]) -> Result<std::sync::Arc<LogoImage>> {
    // (A poisoned lock only means a panic elsewhere: the list itself is always whole.)
    let kept = |list: &mut Vec<Decoded>| {
        let at = list.iter().position(|d| d.file.len() == file.len() && *d.file == *file)?;
        let hit = list.remove(at);
        let image = hit.image.clone();
        list.insert(0, hit);
        Some(image)
    };
    if let Some(image) = kept(&mut DECODED.lock().unwrap_or_else(|e| e.into_inner())) {
        return Ok(image);
    }
    let image = std::sync::Arc::new(decode_for_embedding(file)?);
    let held = |i: &LogoImage| {
        i.rgba.len()
            + i.original.as_ref().map_or(0, |(_, f)| f.len())
            + if i.vector.is_some() { 8 * file.len() } else { 0 }
    };
    let bytes = file.len() + held(&image);
    if bytes <= LOGO_CACHE_BYTES / 4 {
        let mut list = DECODED.lock().unwrap_or_else(|e| e.into_inner());
        if kept(&mut list).is_none() {
            list.insert(0, Decoded { file: file.into(), bytes, image: image.clone() });
            let mut total = 0;
            let keep = list.iter().take(LOGO_CACHE_ENTRIES).take_while(|d| {
                total += d.bytes;
                total <= LOGO_CACHE_BYTES
            });
            let keep = keep.count();
            list.truncate(keep);
        }
    }
    Ok(image)
}

fn unreadable(detail: impl std::fmt::Display) -> Error {
    Error::invalid_value(format!("The argument 'options.style.logo.image' could not be read as an image: {detail}"))
}

/// Whether `file` looks like SVG text (an XML or `<svg` start after spaces and a BOM).
fn looks_like_svg(file: &[u8]) -> bool {
    let text = file.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(file);
    let start = text.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(text.len());
    let head = &text[start..text.len().min(start + 256)];
    head.starts_with(b"<?xml") || head.starts_with(b"<svg") || head.starts_with(b"<!DOCTYPE svg")
}

/// Decodes a logo file, refusing past `MAX_PIXELS` from its header.
pub fn decode(file: &[u8]) -> Result<LogoImage> {
    use image::ImageFormat as F;
    use std::io::Cursor;
    if looks_like_svg(file) {
        return read_svg(file);
    }
    let reader = image::ImageReader::new(Cursor::new(file)).with_guessed_format().map_err(unreadable)?;
    match reader.format() {
        // PNG through decode's reader, which skips ICC profiles and text chunks unread (a
        // small file whose `iCCP` inflates to a gigabyte otherwise costs that much).
        Some(F::Png) => return read_png(file),
        Some(F::Jpeg | F::WebP | F::Gif | F::Bmp) => {}
        _ => return Err(unreadable("not a PNG, JPEG, WebP, GIF or BMP file")),
    }
    let (w, h) = reader.into_dimensions().map_err(unreadable)?;
    let pixels = w as u64 * h as u64;
    if pixels > MAX_PIXELS || w == 0 || h == 0 {
        return Err(Error::out_of_range(format!(
            "The logo in 'options.style.logo.image' is {w} × {h} px ({pixels} pixels); the limit is {MAX_PIXELS} pixels"
        )));
    }
    let mut reader = image::ImageReader::new(Cursor::new(file)).with_guessed_format().map_err(unreadable)?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(w);
    limits.max_image_height = Some(h);
    limits.max_alloc = Some(pixels * 16 + (1 << 20));
    reader.limits(limits);
    let img = reader.decode().map_err(unreadable)?.into_rgba8();
    Ok(LogoImage { width: img.width(), height: img.height(), rgba: img.into_raw(), vector: None, original: None })
}

/// Deepest nesting of XML elements an SVG logo may have (usvg and resvg recurse on it).
pub const MAX_SVG_DEPTH: usize = 128;
/// Most work drawing an SVG logo may cost, in pixels touched at `VECTOR_SIDE` (see
/// `svg_cost`): 64 canvases' worth, tens of milliseconds at most.
pub const MAX_SVG_COST: f64 = 64.0 * VECTOR_SIDE * VECTOR_SIDE;

/// Most stops a gradient in an SVG logo may have.
pub const MAX_SVG_STOPS: usize = 256;

/// SVG elements a logo may not hold: what costs without bound to draw (filters, patterns,
/// markers), what would be read from elsewhere (images) and what would silently go
/// missing (text: no fonts are loaded).
fn refused_element(name: &str) -> Option<&'static str> {
    Some(match name {
        "filter" => "filters",
        n if n.starts_with("fe") => "filters",
        "pattern" => "patterns",
        "marker" => "markers",
        "image" | "feImage" => "images inside the SVG (nothing is fetched or read)",
        "text" | "tspan" | "textPath" => "text (no fonts are loaded: convert it to paths)",
        "foreignObject" => "foreign objects",
        _ => return None,
    })
}

/// An SVG logo: at most `MAX_SVG_NODES` XML nodes (entities count as what they expand to),
/// `MAX_SVG_DEPTH` deep, none of the `refused_element`s, and at most `MAX_SVG_COST` to draw;
/// refused with a message that says which limit before anything is drawn. Nothing is read
/// from outside the file.
fn read_svg(file: &[u8]) -> Result<LogoImage> {
    use resvg::usvg;
    let text = std::str::from_utf8(file).map_err(|_| unreadable("an SVG file that is not UTF-8"))?;
    // The XML parser recurses once per level of nesting: too deep a file is refused first.
    if xml_depth(text)? > MAX_SVG_DEPTH {
        return Err(Error::out_of_range(format!(
            "The SVG logo in 'options.style.logo.image' nests elements more than {MAX_SVG_DEPTH} deep; \
             the limit is {MAX_SVG_DEPTH}"
        )));
    }
    let xml = usvg::roxmltree::ParsingOptions { allow_dtd: true, nodes_limit: MAX_SVG_NODES };
    let doc = usvg::roxmltree::Document::parse_with_options(text, xml).map_err(|e| match e {
        usvg::roxmltree::Error::NodesLimitReached => Error::out_of_range(format!(
            "The SVG logo in 'options.style.logo.image' has more than {MAX_SVG_NODES} nodes (its entities expanded); \
             the limit is {MAX_SVG_NODES}"
        )),
        e => unreadable(format_args!("invalid SVG: {e}")),
    })?;
    check_svg_elements(&doc)?;
    check_svg_expansion(&doc)?;
    let options = usvg::Options {
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_xmltree(&doc, &options).map_err(|e| unreadable(format_args!("invalid SVG: {e}")))?;
    let size = tree.size();
    let (sw, sh) = (size.width() as f64, size.height() as f64);
    if !(sw.is_finite() && sh.is_finite() && sw > 0.0 && sh > 0.0) {
        return Err(unreadable("an SVG of no size"));
    }
    let cost = svg_cost(&tree)?;
    if cost > MAX_SVG_COST {
        return Err(Error::out_of_range(format!(
            "The SVG logo in 'options.style.logo.image' is too costly to draw: about {:.0} canvases of paths, \
             layers and clips at {VECTOR_SIDE} px; the limit is {:.0}",
            cost / (VECTOR_SIDE * VECTOR_SIDE),
            MAX_SVG_COST / (VECTOR_SIDE * VECTOR_SIDE)
        )));
    }
    let long = sw.max(sh);
    let side = |v: f64| ((v / long * VECTOR_SIDE).round() as u32).max(1);
    Ok(LogoImage {
        width: side(sw),
        height: side(sh),
        rgba: Vec::new(),
        vector: Some(std::sync::Arc::new(tree)),
        original: None,
    })
}

/// The deepest nesting of elements in an XML text, read without parsing it (the parser
/// recurses on nesting, so it cannot be what measures it). Entities in a DTD may not hold
/// markup, so the text's own tags are all there is to count; a text that is not well formed
/// is measured as far as it reads and refused by the parser afterwards.
fn xml_depth(text: &str) -> Result<usize> {
    let b = text.as_bytes();
    let find = |from: usize, what: &[u8]| -> usize {
        b[from.min(b.len())..].windows(what.len()).position(|w| w == what).map_or(b.len(), |k| from + k + what.len())
    };
    let (mut i, mut depth, mut deepest) = (0usize, 0usize, 0usize);
    while let Some(k) = b[i..].iter().position(|&c| c == b'<') {
        i += k;
        let rest = &b[i..];
        if rest.starts_with(b"<!--") {
            i = find(i + 4, b"-->");
        } else if rest.starts_with(b"<![CDATA[") {
            i = find(i + 9, b"]]>");
        } else if rest.starts_with(b"<?") {
            i = find(i + 2, b"?>");
        } else if rest.starts_with(b"<!DOCTYPE") {
            let open = b[i..].iter().position(|&c| c == b'[' || c == b'>').map_or(b.len(), |k| i + k);
            if b.get(open) == Some(&b'[') {
                // The subset ends at a `]` that only spaces part from `>`.
                let mut end = open;
                while let Some(k) = b[end + 1..].iter().position(|&c| c == b']') {
                    end += 1 + k;
                    let after = b[end + 1..].iter().position(|c| !c.is_ascii_whitespace()).map(|k| end + 1 + k);
                    if after.is_some_and(|a| b[a] == b'>') {
                        break;
                    }
                }
                let subset = &b[open..end];
                // Every `<` in the subset must open a declaration (`<!ENTITY`, `<!--`, …).
                if subset.windows(2).any(|w| w[0] == b'<' && w[1] != b'!') || subset.last() == Some(&b'<') {
                    return Err(Error::invalid_value(
                        "The SVG logo in 'options.style.logo.image' declares entities that hold markup: \
                         SVG logos may not",
                    ));
                }
                i = end;
            } else {
                i = open + 1;
            }
        } else if rest.starts_with(b"</") {
            depth = depth.saturating_sub(1);
            i += 2;
        } else {
            // An open tag: to its `>`, outside quoted attribute values.
            let mut j = i + 1;
            let mut quote = None;
            while j < b.len() {
                match (quote, b[j]) {
                    (None, b'"' | b'\'') => quote = Some(b[j]),
                    (Some(q), c) if c == q => quote = None,
                    (None, b'>') => break,
                    _ => {}
                }
                j += 1;
            }
            if j >= b.len() || b[j - 1] != b'/' {
                depth += 1;
                deepest = deepest.max(depth);
            }
            i = j + 1;
        }
        if i >= b.len() {
            break;
        }
    }
    Ok(deepest)
}

/// Refuses an SVG document nested deeper than `MAX_SVG_DEPTH` or holding a refused
/// element, walking it without recursion (a deep document is what it guards against).
fn check_svg_elements(doc: &resvg::usvg::roxmltree::Document) -> Result<()> {
    const SVG_NS: &str = "http://www.w3.org/2000/svg";
    // Each node's depth, by id: nodes come in document order, so a parent's is known first.
    let mut depths: Vec<u16> = Vec::new();
    for node in doc.descendants() {
        let depth = node.parent().map_or(0, |p| depths.get(p.id().get_usize()).copied().unwrap_or(0) + 1);
        let id = node.id().get_usize();
        if depths.len() <= id {
            depths.resize(id + 1, 0);
        }
        depths[id] = depth;
        if !node.is_element() {
            continue;
        }
        if depth as usize > MAX_SVG_DEPTH {
            return Err(Error::out_of_range(format!(
                "The SVG logo in 'options.style.logo.image' nests elements more than {MAX_SVG_DEPTH} deep; \
                 the limit is {MAX_SVG_DEPTH}"
            )));
        }
        let name = node.tag_name();
        if name.namespace() == Some(SVG_NS) {
            if let Some(what) = refused_element(name.name()) {
                return Err(Error::invalid_value(format!(
                    "The SVG logo in 'options.style.logo.image' holds a <{}> element: SVG logos may not hold {what}",
                    name.name()
                )));
            }
        }
    }
    Ok(())
}

/// Most elements an SVG logo may stand for once its references are followed (see
/// `check_svg_expansion`).
pub const MAX_SVG_EXPANDED: u64 = 200_000;

/// Refuses an SVG logo that stands for more than `MAX_SVG_EXPANDED` elements once usvg has
/// followed its references: each `<use>` is a copy of what it names, and so is each use of a
/// mask or clip path that usvg does not share (a mask in `objectBoundingBox` units, the
/// default, or a clip path in them), so a few kilobytes could stand for billions of elements.
/// Shared ones count once. Counted without recursion, each element once; a reference cycle
/// is refused.
fn check_svg_expansion<'a, 'i>(doc: &'a resvg::usvg::roxmltree::Document<'i>) -> Result<()> {
    use resvg::usvg::roxmltree::Node;
    const XLINK: &str = "http://www.w3.org/1999/xlink";
    let too_large = || {
        Error::out_of_range(format!(
            "The SVG logo in 'options.style.logo.image' stands for more than {MAX_SVG_EXPANDED} elements once its \
             <use> elements, masks and clip paths are followed; the limit is {MAX_SVG_EXPANDED}"
        ))
    };
    let ids: std::collections::HashMap<&'a str, Node<'a, 'i>> =
        doc.descendants().filter(|n| n.is_element()).filter_map(|n| n.attribute("id").map(|id| (id, n))).collect();
    // Whether usvg makes a new copy of this mask or clip path for every use.
    let copied = |n: &Node| match n.tag_name().name() {
        "mask" => {
            n.attribute("maskUnits") != Some("userSpaceOnUse")
                || n.attribute("maskContentUnits") == Some("objectBoundingBox")
        }
        "clipPath" => n.attribute("clipPathUnits") == Some("objectBoundingBox"),
        _ => false,
    };
    // A stylesheet could give any element a reference to a copied mask or clip path: with
    // one of those, its properties must be given element by element.
    let styled = doc
        .descendants()
        .any(|n| n.has_tag_name("style") && n.text().is_some_and(|t| t.contains("mask") || t.contains("clip-path")));
    if styled && ids.values().any(copied) {
        return Err(Error::invalid_value(
            "The SVG logo in 'options.style.logo.image' sets masks or clip paths from a stylesheet and has masks or clip \
             paths in objectBoundingBox units: give those as attributes, or in userSpaceOnUse units",
        ));
    }
    // The elements `n` stands for besides its children: a `<use>`'s target, and copied masks
    // and clip paths it refers to; shared ones go to `shared`, counted once.
    let references = |n: Node<'a, 'i>, shared: &mut Vec<Node<'a, 'i>>| -> Vec<Node<'a, 'i>> {
        let mut out = Vec::new();
        if n.has_tag_name("use") {
            let href = n.attribute((XLINK, "href")).or_else(|| n.attribute("href"));
            if let Some(target) = href.and_then(|h| h.strip_prefix('#')).and_then(|id| ids.get(id)) {
                out.push(*target);
            }
        }
        let mut named = Vec::new();
        for a in n.attributes() {
            match a.name() {
                "mask" | "clip-path" | "style" => named.extend(urls(a.value())),
                _ => {}
            }
        }
        for id in named {
            if let Some(target) = ids.get(id).filter(|t| t.has_tag_name("mask") || t.has_tag_name("clipPath")) {
                if copied(target) {
                    out.push(*target);
                } else {
                    shared.push(*target);
                }
            }
        }
        out
    };
    // Post-order over elements and references, each element's total counted once.
    let mut total: std::collections::HashMap<resvg::usvg::roxmltree::NodeId, u64> = Default::default();
    let mut on_stack = std::collections::HashSet::new();
    let mut shared = Vec::new();
    let mut counted_shared = std::collections::HashSet::new();
    let mut grand = 0u64;
    let mut roots = vec![doc.root_element()];
    while let Some(root) = roots.pop() {
        if total.contains_key(&root.id()) {
            continue;
        }
        // (element, what it stands for, whether they were pushed)
        let mut stack: Vec<(Node<'a, 'i>, bool)> = vec![(root, false)];
        while let Some((n, expanded)) = stack.pop() {
            let parts: Vec<Node<'a, 'i>> =
                n.children().filter(|c| c.is_element()).chain(references(n, &mut shared)).collect();
            if !expanded {
                if total.contains_key(&n.id()) {
                    continue;
                }
                if !on_stack.insert(n.id()) {
                    return Err(Error::invalid_value(
                        "The SVG logo in 'options.style.logo.image' refers to itself (a <use>, mask or clip path inside what it names)",
                    ));
                }
                stack.push((n, true));
                for p in parts {
                    if on_stack.contains(&p.id()) {
                        return Err(Error::invalid_value(
                            "The SVG logo in 'options.style.logo.image' refers to itself (a <use>, mask or clip path inside what it names)",
                        ));
                    }
                    if !total.contains_key(&p.id()) {
                        stack.push((p, false));
                    }
                }
            } else {
                let sum =
                    parts.iter().fold(1u64, |acc, p| acc.saturating_add(total.get(&p.id()).copied().unwrap_or(0)));
                if sum > MAX_SVG_EXPANDED {
                    return Err(too_large());
                }
                on_stack.remove(&n.id());
                total.insert(n.id(), sum);
            }
        }
        grand = grand.saturating_add(total[&root.id()]);
        for s in shared.drain(..) {
            if counted_shared.insert(s.id()) {
                roots.push(s);
            }
        }
        if grand > MAX_SVG_EXPANDED {
            return Err(too_large());
        }
    }
    Ok(())
}

/// The ids in `url(#id)`s of a property value.
fn urls(v: &str) -> Vec<&str> {
    v.match_indices("url(")
        .filter_map(|(k, _)| {
            let rest = v[k + 4..].trim_start().trim_start_matches(['"', '\'']);
            Some(rest.strip_prefix('#')?.split([')', '"', '\'', ' ']).next().unwrap_or(""))
        })
        .collect()
}

/// What drawing `tree` at `VECTOR_SIDE` costs at most, in pixels touched: each path its
/// box's area plus, for each of its segments, the box's height (a scanline fill visits
/// every edge on every row it spans); each layer (opacity, clip) its area; each clip its
/// paths, every time it is used. Clip paths may not nest (their cost would multiply).
fn svg_cost(tree: &resvg::usvg::Tree) -> Result<f64> {
    use resvg::usvg::{Group, Node, Rect};
    let size = tree.size();
    let scale = VECTOR_SIDE / size.width().max(size.height()) as f64;
    let (cw, ch) = (size.width() as f64, size.height() as f64);
    // A box's extent on the canvas, in pixels at `VECTOR_SIDE`.
    let extent = |r: Rect| -> (f64, f64) {
        let w = (r.right() as f64).min(cw) - (r.left() as f64).max(0.0);
        let h = (r.bottom() as f64).min(ch) - (r.top() as f64).max(0.0);
        if w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0 {
            ((w * scale).max(1.0), (h * scale).max(1.0))
        } else {
            (0.0, 0.0)
        }
    };
    // Whether a group under `g` (or `g`) is clipped or masked, as `with` says.
    let holds = |g: &Group, with: fn(&Group) -> bool| {
        let mut stack = vec![g];
        while let Some(g) = stack.pop() {
            if with(g) {
                return true;
            }
            stack.extend(g.children().iter().filter_map(|n| if let Node::Group(g) = n { Some(&**g) } else { None }));
        }
        false
    };
    // A clip's or mask's content is drawn again at each use: it may not be clipped or masked
    // itself, or the work would multiply with each level.
    let layered: fn(&Group) -> bool = |g| g.clip_path().is_some() || g.mask().is_some();
    let clips_nest = tree.clip_paths().iter().any(|c| c.clip_path().is_some() || holds(c.root(), layered));
    if clips_nest || tree.masks().iter().any(|m| m.mask().is_some() || holds(m.root(), layered)) {
        return Err(Error::invalid_value(
            "The SVG logo in 'options.style.logo.image' clips or masks inside a clip path or mask: \
             SVG logos may clip and mask only with plain clip paths and masks",
        ));
    }
    // A gradient's colour is found among its stops at every pixel it paints.
    let stops = (tree.linear_gradients().iter().map(|g| g.stops().len()))
        .chain(tree.radial_gradients().iter().map(|g| g.stops().len()))
        .max()
        .unwrap_or(0);
    if stops > MAX_SVG_STOPS {
        return Err(Error::out_of_range(format!(
            "The SVG logo in 'options.style.logo.image' has a gradient of {stops} stops; the limit is {MAX_SVG_STOPS}"
        )));
    }
    // The paths and layers under `g`; `layers` gives a clip's or mask's cost (its canvas and
    // its content, counted once each and added at each use).
    fn walk(g: &Group, extent: &dyn Fn(Rect) -> (f64, f64), layers: &mut dyn FnMut(&Group) -> f64) -> f64 {
        let mut cost = 0.0;
        let mut stack = vec![g];
        while let Some(g) = stack.pop() {
            if g.should_isolate() {
                let (w, h) = extent(g.abs_layer_bounding_box().to_rect());
                cost += w * h + layers(g);
            }
            for child in g.children() {
                match child {
                    Node::Group(g) => stack.push(g),
                    Node::Path(p) => {
                        let (w, h) = extent(p.abs_stroke_bounding_box());
                        cost += w * h + p.data().len() as f64 * h;
                    }
                    Node::Image(_) | Node::Text(_) => {}
                }
            }
            if cost > MAX_SVG_COST {
                break; // refused: the rest need not be counted
            }
        }
        cost
    }
    let canvas = VECTOR_SIDE * VECTOR_SIDE;
    let mut clip_costs = std::collections::HashMap::new();
    let mut mask_costs = std::collections::HashMap::new();
    let mut layers = |g: &Group| -> f64 {
        let clip = g.clip_path().map_or(0.0, |c| {
            *clip_costs.entry(c as *const _ as usize).or_insert_with(|| canvas + walk(c.root(), &extent, &mut |_| 0.0))
        });
        let mask = g.mask().map_or(0.0, |m| {
            *mask_costs.entry(m as *const _ as usize).or_insert_with(|| canvas + walk(m.root(), &extent, &mut |_| 0.0))
        });
        clip + mask
    };
    Ok(walk(tree.root(), &extent, &mut layers))
}

fn read_png(file: &[u8]) -> Result<LogoImage> {
    let mut reader = crate::decode::image::png_reader(file, MAX_PIXELS).map_err(|e| match e.kind {
        ErrorKind::OutOfRange => {
            Error::out_of_range(format!("The logo in 'options.style.logo.image' is too large: {}", e.message))
        }
        _ => unreadable(e.message),
    })?;
    let size = reader.output_buffer_size().ok_or_else(|| unreadable("its size overflows"))?;
    let mut buf = vec![0u8; size];
    let out = reader.next_frame(&mut buf).map_err(unreadable)?;
    buf.truncate(out.line_size * out.height as usize);
    let rgba = match out.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        png::ColorType::GrayscaleAlpha => buf.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
        png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => return Err(unreadable("its palette was not expanded")),
    };
    if rgba.len() as u64 != out.width as u64 * out.height as u64 * 4 {
        return Err(unreadable("its rows are not whole"));
    }
    Ok(LogoImage { width: out.width, height: out.height, rgba, vector: None, original: None })
}

/// Where the logo's box lies, in modules from the symbol's top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    pub size: f64,
    pub x0: f64,
    pub x1: f64,
    pub y0: f64,
    pub y1: f64,
}

impl Placement {
    /// The box of a logo `aspect` (height / width) times as tall as wide, whose longer side
    /// is `size` of the symbol's `count` modules, centred.
    pub fn new(count: usize, aspect: f64, size: f64) -> Placement {
        let n = count as f64;
        let (w, h) = if aspect <= 1.0 { (size * n, size * n * aspect) } else { (size * n / aspect, size * n) };
        Placement { size, x0: (n - w) / 2.0, x1: (n + w) / 2.0, y0: (n - h) / 2.0, y1: (n + h) / 2.0 }
    }

    /// Whether the box overlaps module (`row`, `col`) (touching its edge is not overlapping).
    pub fn covers(&self, row: usize, col: usize) -> bool {
        let (r, c) = (row as f64, col as f64);
        c + 1.0 > self.x0 && c < self.x1 && r + 1.0 > self.y0 && r < self.y1
    }
}

/// Whether the box stays off the finder patterns and their separators (8 × 8 at three
/// corners) and within the budget (function modules it covers are drawn over it).
fn fits(version: u8, level: EcLevel, p: &Placement) -> bool {
    let n = crate::qr::tables::symbol_size(version) as f64;
    let near = |lo: f64| lo < 8.0;
    let far = |hi: f64| hi > n - 8.0;
    let on_finder = (near(p.y0) && near(p.x0)) || (near(p.y0) && far(p.x1)) || (far(p.y1) && near(p.x0));
    !on_finder && ec_budget::fits(version, level, |r, c| p.covers(r, c) && !ec_budget::is_function(version, r, c))
}

/// `largest_fitting_searched`, remembered for the last few questions: a server asks the
/// same one (its logo, its version and level) on every call, and the search walks the
/// symbol's codewords about ten times.
fn largest_fitting(version: u8, level: EcLevel, count: usize, aspect: f64, cap: f64) -> Option<f64> {
    type Key = (u8, EcLevel, usize, u64, u64);
    static ANSWERED: std::sync::Mutex<Vec<(Key, Option<f64>)>> = std::sync::Mutex::new(Vec::new());
    const KEPT: usize = 32;
    let key = (version, level, count, aspect.to_bits(), cap.to_bits());
    let lock = || ANSWERED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, answer)) = lock().iter().find(|(k, _)| *k == key) {
        return answer;
    }
    let answer = largest_fitting_searched(version, level, count, aspect, cap);
    let mut list = lock();
    list.insert(0, (key, answer));
    list.truncate(KEPT);
    answer
}

/// The largest size in thousandths, at most `cap`, whose box fits; `None` if none does.
fn largest_fitting_searched(version: u8, level: EcLevel, count: usize, aspect: f64, cap: f64) -> Option<f64> {
    let (mut lo, mut hi) = (0u32, (cap * 1000.0).floor() as u32);
    let at = |k: u32| Placement::new(count, aspect, k as f64 / 1000.0);
    if hi == 0 || !fits(version, level, &at(1)) {
        return None;
    }
    lo = lo.max(1);
    if fits(version, level, &at(hi)) {
        return Some(hi as f64 / 1000.0);
    }
    // Invariant: `lo` fits, `hi` does not (the box only grows with the size).
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if fits(version, level, &at(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo as f64 / 1000.0)
}

/// Places the logo: at the caller's size if it fits the budget, else `ERR_QR_LOGO_TOO_LARGE`
/// naming the largest size that fits; without a size, the largest that fits, at most 0.3.
pub fn place(spec: &LogoSpec, version: u8, level: EcLevel, count: usize, image: &LogoImage) -> Result<Placement> {
    let aspect = image.height as f64 / image.width as f64;
    // The largest size that fits is searched for only when the message needs it.
    let too_large = |asked: String| {
        let fit = match largest_fitting(version, level, count, aspect, MAX_SIZE) {
            Some(s) => format!("the largest size that fits is {s}"),
            None => "no logo fits: use errorCorrectionLevel 'H' or more data room".to_string(),
        };
        Error::new(
            ErrorKind::LogoTooLarge,
            format!(
                "The logo hides more of the code than its error correction can spare ({asked}, version {version}, level '{}'): {fit}",
                level.letter()
            ),
        )
    };
    match spec.size {
        Some(size) => {
            let p = Placement::new(count, aspect, size);
            if fits(version, level, &p) {
                Ok(p)
            } else {
                Err(too_large(format!("size {size}")))
            }
        }
        None => match largest_fitting(version, level, count, aspect, DEFAULT_MAX_SIZE) {
            Some(s) => Ok(Placement::new(count, aspect, s)),
            None => Err(too_large("any size".into())),
        },
    }
}

/// What qr-code-styling's logo rule gives: the hidden modules' box and the image's place.
pub struct QrCodeStylingLogo {
    pub hidden: Placement,
    /// x, y, width, height in px.
    pub rect: [f64; 4],
}

/// qr-code-styling's own logo sizing (its `calculateImageSize`): at most `imageSize` times its
/// level's share (L 7 %, M 15 %, Q 25 %, H 30 %) of the modules hidden, an odd number of them
/// on each axis, at most `count − 14` on either, the image as many module widths wide as it
/// hides, its height from its aspect. `round` floors pixel positions as `roundSize` does.
pub fn place_qr_code_styling(
    image_size: f64,
    margin: f64,
    level: EcLevel,
    layout: &super::spec::Layout,
    image: &LogoImage,
    round: bool,
) -> QrCodeStylingLogo {
    let n = layout.count as f64;
    let dot = layout.module;
    let share = match level {
        EcLevel::L => 0.07,
        EcLevel::M => 0.15,
        EcLevel::Q => 0.25,
        EcLevel::H => 0.3,
    };
    let max_hidden = (image_size * share * n * n).floor();
    let max_axis = n - 14.0;
    let (w, h) = (image.width as f64, image.height as f64);
    let (mut width, mut height, mut hide_x, mut hide_y) = (0.0, 0.0, 0.0, 0.0);
    if w > 0.0 && h > 0.0 && max_hidden > 0.0 && dot > 0.0 {
        let a = h / w;
        let mut ox = (max_hidden / a).sqrt().floor();
        if ox <= 0.0 {
            ox = 1.0;
        }
        if max_axis > 0.0 && max_axis < ox {
            ox = max_axis;
        }
        if ox % 2.0 == 0.0 {
            ox -= 1.0;
        }
        let mut sx = ox * dot;
        let mut oy = 1.0 + 2.0 * ((ox * a - 1.0) / 2.0).ceil();
        let mut sy = (sx * a).round();
        if oy * ox > max_hidden || (max_axis > 0.0 && max_axis < oy) {
            // (qr-code-styling also steps `ox` down here when `oy` is even; `ox` is
            // recomputed just below, so that step changes nothing.)
            if max_axis > 0.0 && max_axis < oy {
                oy = max_axis;
            } else {
                oy -= 2.0;
            }
            sy = oy * dot;
            ox = 1.0 + 2.0 * ((oy / a - 1.0) / 2.0).ceil();
            sx = (sy / a).round();
        }
        (width, height, hide_x, hide_y) = (sx, sy, ox, oy);
    }
    let none = Placement { size: 0.0, x0: -1.0, x1: -1.0, y0: -1.0, y1: -1.0 };
    let hidden = if hide_x > 0.0 && hide_y > 0.0 {
        Placement {
            size: 0.0,
            x0: (n - hide_x) / 2.0,
            x1: (n + hide_x) / 2.0,
            y0: (n - hide_y) / 2.0,
            y1: (n + hide_y) / 2.0,
        }
    } else {
        none
    };
    let r = |v: f64| if round { v.floor() } else { v };
    let x = layout.origin + r(margin + (n * dot - width) / 2.0);
    let y = layout.origin + r(margin + (n * dot - height) / 2.0);
    QrCodeStylingLogo { hidden, rect: [x, y, width - 2.0 * margin, height - 2.0 * margin] }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NS: &str = r#"xmlns="http://www.w3.org/2000/svg""#;

    fn svg(body: &str) -> Vec<u8> {
        format!(r#"<svg {NS} viewBox="0 0 10 10">{body}</svg>"#).into_bytes()
    }

    #[test]
    fn a_remembered_largest_size_is_the_one_searched_for_each_question() {
        // More questions than are kept, asked twice over, interleaved: every answer is the
        // search's own for its question, never a neighbour's.
        let questions: Vec<_> =
            (1..=40u8).flat_map(|v| [(v, EcLevel::H, 1.0), (v, EcLevel::Q, 0.5), (v, EcLevel::L, 2.0)]).collect();
        for _ in 0..2 {
            for &(version, level, aspect) in &questions {
                let count = crate::qr::tables::symbol_size(version);
                assert_eq!(
                    largest_fitting(version, level, count, aspect, DEFAULT_MAX_SIZE),
                    largest_fitting_searched(version, level, count, aspect, DEFAULT_MAX_SIZE),
                    "v{version} {level:?} aspect {aspect}"
                );
            }
        }
    }

    #[test]
    fn a_logo_sent_again_is_decoded_once_and_only_the_same_bytes_hit() {
        // Files no other test uses: a colour of their own each.
        let file = |fill: &str| svg(&format!(r##"<rect width="10" height="7" fill="#{fill}"/>"##));
        let (a, b) = (file("a1b2c3"), file("a1b2c4"));
        assert_eq!(a.len(), b.len());
        let first = decode_cached(&a).unwrap();
        assert!(std::sync::Arc::ptr_eq(&first, &decode_cached(&a).unwrap()));
        // The same length, another byte: decoded apart, not taken for it.
        let other = decode_cached(&b).unwrap();
        assert!(!std::sync::Arc::ptr_eq(&first, &other));
        assert!(other.original.as_ref().is_some_and(|(_, f)| String::from_utf8_lossy(f).contains("a1b2c4")));
        // Failures are not kept, and a bad file fails the same way again.
        assert!(decode_cached(b"not an image").is_err() && decode_cached(b"not an image").is_err());
        // What is kept stays within its budgets.
        let list = DECODED.lock().unwrap_or_else(|e| e.into_inner());
        assert!(list.len() <= LOGO_CACHE_ENTRIES);
        assert!(list.iter().map(|d| d.bytes).sum::<usize>() <= LOGO_CACHE_BYTES);
    }

    #[test]
    fn a_logo_too_large_to_keep_is_decoded_each_time() {
        // 1500 × 1500 RGBA is 9 MB of pixels, past a quarter of the budget.
        let mut png = Vec::new();
        let img = image::RgbaImage::from_pixel(1500, 1500, image::Rgba([7, 8, 9, 255]));
        img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).unwrap();
        let one = decode_cached(&png).unwrap();
        assert!(!std::sync::Arc::ptr_eq(&one, &decode_cached(&png).unwrap()));
        assert_eq!((one.width, one.height), (1500, 1500));
    }

    #[test]
    fn xml_depth_counts_elements_not_comments_data_or_quoted_brackets() {
        let depth = |s: &str| xml_depth(s).unwrap();
        assert_eq!(depth("<a><b/><c><d></d></c></a>"), 3);
        assert_eq!(depth(r#"<a t="x>y/>"><!-- <b><b> --><![CDATA[<c><c>]]><?pi <d> ?><e/></a>"#), 1);
        assert_eq!(depth("<!DOCTYPE svg [<!ENTITY a \"x\">]><a><b></b></a>"), 2);
        assert!(xml_depth("<!DOCTYPE svg [<!ENTITY g \"<g></g>\">]><a/>").is_err());
        let deep = format!("{}{}", "<g>".repeat(MAX_SVG_DEPTH + 1), "</g>".repeat(MAX_SVG_DEPTH + 1));
        assert_eq!(depth(&deep), MAX_SVG_DEPTH + 1);
        assert!(decode(deep.replacen("<g>", &format!("<svg {NS}>"), 1).as_bytes()).is_err());
    }

    #[test]
    fn an_svg_logo_is_drawn_at_its_aspect() {
        let logo = decode(&svg(r#"<rect width="10" height="10" fill="red"/>"#)).unwrap();
        assert_eq!((logo.width, logo.height), (VECTOR_SIDE as u32, VECTOR_SIDE as u32));
        let wide = decode(format!(r#"<svg {NS} viewBox="0 0 40 10"><rect width="40" height="10"/></svg>"#).as_bytes());
        assert_eq!(wide.map(|l| (l.width, l.height)).unwrap(), (1024, 256));
        let px = logo.resized(4, 4).unwrap();
        assert_eq!(&px[..4], &[255, 0, 0, 255]);
        // Past `VECTOR_SIDE`, drawn at it and scaled: the same colours.
        let big = logo.resized(2048, 2048).unwrap();
        assert_eq!(&big[..4], &[255, 0, 0, 255]);
    }

    #[test]
    fn what_an_svg_logo_stands_for_is_counted_through_its_references() {
        let uses = |n: usize| {
            let mut body = String::from(r#"<defs><rect id="g0" width="1" height="1"/>"#);
            for i in 0..n {
                body += &format!(r#"<g id="g{}">{}</g>"#, i + 1, format!(r##"<use href="#g{i}"/>"##).repeat(10));
            }
            body + &format!(r##"</defs><use href="#g{n}"/>"##)
        };
        // 10^3 copies fit; 10^6 do not, and are refused before usvg makes one.
        assert!(decode(&svg(&uses(3))).is_ok());
        let err = decode(&svg(&uses(6))).unwrap_err();
        assert!(err.message.contains("stands for more than"), "{}", err.message);
        let cycle = r##"<defs><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></defs><use href="#a"/>"##;
        assert!(decode(&svg(cycle)).unwrap_err().message.contains("refers to itself"));
        // A mask usvg shares counts once however often it is used; one it copies, each time.
        let masked = |units: &str, uses: usize| {
            let dot = r#"<rect width="0.01" height="0.01" fill="white"/>"#;
            let mask = format!(r#"<mask id="m" {units}>{}</mask>"#, dot.repeat(4500));
            svg(&format!("<defs>{mask}</defs>{}", r#"<rect width="1" height="1" mask="url(#m)"/>"#.repeat(uses)))
        };
        let shared = r#"maskUnits="userSpaceOnUse""#;
        assert!(decode(&masked(shared, 50)).is_ok());
        assert!(decode(&masked("", 50)).unwrap_err().message.contains("stands for more than"));
        assert!(decode(&masked("", 40)).is_ok());
    }

    #[test]
    fn an_svg_logo_that_costs_too_much_to_draw_is_refused_by_name() {
        let refused = |body: &str| decode(&svg(body)).unwrap_err().message;
        assert!(refused(r#"<filter id="f"><feFlood/></filter>"#).contains("<filter>"));
        assert!(refused(r#"<text>logo</text>"#).contains("convert it to paths"));
        assert!(refused(r#"<image href="a.png" width="1" height="1"/>"#).contains("<image>"));
        let layers = |n: usize| r#"<rect width="10" height="10" opacity="0.5"/>"#.repeat(n);
        // Each half-transparent full-size rect is a canvas of fill and one of layer.
        assert!(decode(&svg(&layers(31))).is_ok());
        assert!(refused(&layers(40)).contains("too costly to draw"));
        let nested = r#"<defs><clipPath id="a"><rect width="5" height="5"/></clipPath>
            <clipPath id="b"><rect width="5" height="5" clip-path="url(#a)"/></clipPath></defs>
            <rect width="9" height="9" clip-path="url(#b)"/>"#;
        assert!(refused(nested).contains("clips or masks inside"));
        let stops = |n: usize| {
            let stops: String =
                (0..n).map(|i| format!(r#"<stop offset="{}" stop-color="red"/>"#, i as f64 / n as f64)).collect();
            format!(r#"<linearGradient id="l">{stops}</linearGradient><rect width="9" height="9" fill="url(#l)"/>"#)
        };
        assert!(decode(&svg(&stops(MAX_SVG_STOPS))).is_ok());
        assert!(refused(&stops(MAX_SVG_STOPS + 1)).contains("stops"));
    }
}
