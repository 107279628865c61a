//! What one call of the QR functions asks for and makes, with no JavaScript types: the input
//! once copied, the checked options (`Settings`), the job (`Job`: which function), and the
//! one function that does a job (`run`) by dispatching to the encoder and the writers.
//!
//! The binding reads JavaScript values into these types on the main thread and hands them to
//! `run` on a pool thread (or runs it inline for the `…Sync` functions); every decision of
//! what to draw, and with which writer, is made here, where a unit test reaches it.

use super::render::RenderOptions;
use super::segment::{KanjiTable, Mode, Segment};
use super::style::{self, ImageFormat, Layout, Stages, Style};
use super::{png::PngWriter, EcLevel, EncodeOptions, QrInput, QrMatrix};
use crate::error::{Error, ErrorKind, Result};
use base64::Engine;
use std::borrow::Cow;

/// Most inputs one `generateMany` call takes.
pub const MAX_BATCH: u32 = 10_000;

/// JPEG quality when `options.quality` is absent.
pub const DEFAULT_QUALITY: u8 = 90;

/// Output format.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    Png,
    Svg,
    Jpeg,
    Webp,
    Utf8,
    Terminal,
}

impl Format {
    /// `options.type`'s names for each format.
    pub fn parse(name: &str) -> Option<Format> {
        Some(match name {
            "png" | "image/png" => Format::Png,
            "svg" => Format::Svg,
            "jpeg" | "image/jpeg" => Format::Jpeg,
            "webp" | "image/webp" => Format::Webp,
            "utf8" => Format::Utf8,
            "terminal" => Format::Terminal,
            _ => return None,
        })
    }

    /// The data URL prefix of an image format.
    pub fn data_url_prefix(self) -> &'static str {
        match self {
            Format::Svg => "data:image/svg+xml;base64,",
            Format::Jpeg => "data:image/jpeg;base64,",
            Format::Webp => "data:image/webp;base64,",
            _ => "data:image/png;base64,",
        }
    }

    /// Whether the format is drawn by the styled renderer even without a style.
    fn is_styled_only(self) -> bool {
        matches!(self, Format::Jpeg | Format::Webp)
    }
}

/// What one input holds once copied off the JavaScript heap.
pub enum InputData {
    Text(String),
    /// A copy of the caller's Buffer/Uint8Array, made on the JavaScript thread.
    Bytes(Vec<u8>),
    /// Segments given by the caller (the compat layer's `[{ data, mode }]`).
    Segments(Vec<(Mode, Vec<u8>)>),
}

impl InputData {
    pub fn as_input(&self) -> QrInput<'_> {
        match self {
            InputData::Text(t) => QrInput::Text(t),
            InputData::Bytes(b) => QrInput::Segments(vec![Segment { mode: Mode::Byte, data: Cow::Borrowed(b) }]),
            InputData::Segments(list) => QrInput::Segments(
                list.iter().map(|(mode, data)| Segment { mode: *mode, data: Cow::Borrowed(data) }).collect(),
            ),
        }
    }
}

/// Every option, checked and converted.
#[derive(Clone)]
pub struct Settings {
    pub encode: EncodeOptions,
    pub render: RenderOptions,
    pub format: Format,
    pub small: bool,
    /// Terminal `small` output with inverted colours (the compat layer's `inverse`).
    pub inverse: bool,
    pub width: Option<f64>,
    /// `options.style`: drawn by `qr::style` instead of the plain writers.
    pub style: Option<Box<Style>>,
    /// JPEG quality, 1..=100.
    pub quality: u8,
}

impl Settings {
    /// The defaults, with `format` as the function's default output.
    pub fn new(format: Format) -> Settings {
        Settings {
            encode: EncodeOptions::default(),
            render: RenderOptions::default(),
            format,
            small: false,
            inverse: false,
            width: None,
            style: None,
            quality: DEFAULT_QUALITY,
        }
    }
}

/// qr-code-styling's layout: the image's side, its margin in px, `dotsOptions.roundSize`.
#[derive(Clone, Copy)]
pub struct QcsLayout {
    pub side: f64,
    pub margin: f64,
    pub round: bool,
}

/// Which function a call serves, with its input.
pub enum Job {
    Generate(InputData),
    Many(Vec<InputData>),
    DataUrl(InputData),
    Text(InputData),
    /// `qr-native/styling`: a matrix qr-code-styling's encoder made, drawn in its layout.
    Matrix(Box<QrMatrix>, QcsLayout),
    /// `qr-native/styling`: one segment encoded as qrcode-generator encodes it, drawn so.
    Generator {
        data: Vec<u8>,
        mode: Mode,
        type_number: u8,
        layout: QcsLayout,
    },
}

impl Job {
    /// The JavaScript function the job serves (for messages and fault injection).
    pub fn name(&self) -> &'static str {
        match self {
            Job::Generate(_) => "generate",
            Job::Many(_) => "generateMany",
            Job::DataUrl(_) => "toDataURL",
            Job::Text(_) => "toString",
            Job::Matrix(..) | Job::Generator { .. } => "__stylingRender",
        }
    }
}

/// What a job hands back.
pub enum Produced {
    Bytes(Vec<u8>),
    Many(Vec<Vec<u8>>),
    Text(String),
}

/// One call's work: the job, its settings, and how to report failures.
pub struct QrWork {
    pub job: Job,
    pub settings: Settings,
    /// Kanji mode's Shift JIS values (compat layer with `toSJISFunc`).
    pub kanji: Option<KanjiTable>,
    /// Report failures with the `qrcode` package's messages (compat layer).
    pub compat: bool,
}

impl QrWork {
    /// Does the job. `check` is asked before the work and between the inputs of a batch, and
    /// its error (an abort) ends the work.
    pub fn run(&self, check: &dyn Fn() -> Result<()>) -> Result<Produced> {
        check()?;
        let s = &self.settings;
        let kanji = self.kanji.as_ref();
        let compat = |input: &InputData, e: Error| if self.compat { qrcode_error(e, input, s, kanji) } else { e };
        Ok(match &self.job {
            Job::Generate(input) => {
                Produced::Bytes(generate(&input.as_input(), s, kanji).map_err(|e| compat(input, e))?)
            }
            Job::Many(inputs) => {
                let mut out = Vec::with_capacity(inputs.len());
                for input in inputs {
                    check()?;
                    out.push(generate(&input.as_input(), s, kanji)?);
                }
                Produced::Many(out)
            }
            Job::DataUrl(input) => Produced::Text(data_url(input, s)?),
            Job::Matrix(matrix, q) => Produced::Bytes(draw_qcs(matrix, s, q)?),
            Job::Generator { data, mode, type_number, layout } => {
                let matrix = super::generator::symbol(data, *mode, s.encode.level, *type_number)?;
                Produced::Bytes(draw_qcs(&matrix, s, layout)?)
            }
            Job::Text(input) => {
                let matrix =
                    super::encode_symbol(&input.as_input(), &s.encode, kanji).map_err(|e| compat(input, e))?.matrix;
                if s.style.is_some() {
                    let svg = render_styled(&matrix, s)?;
                    Produced::Text(
                        String::from_utf8(svg).map_err(|_| Error::new(ErrorKind::Internal, "SVG is not UTF-8"))?,
                    )
                } else {
                    Produced::Text(render_text(&matrix, s, s.format))
                }
            }
        })
    }
}

/// Encodes and writes one input in its format: the whole work of one `generate`.
pub fn generate(input: &QrInput, s: &Settings, kanji: Option<&KanjiTable>) -> Result<Vec<u8>> {
    let matrix = super::encode_symbol(input, &s.encode, kanji)?.matrix;
    if s.style.is_some() || s.format.is_styled_only() {
        return render_styled(&matrix, s);
    }
    Ok(match s.format {
        Format::Png => PngWriter::default().write(&matrix, &s.render)?,
        other => render_text(&matrix, s, other).into_bytes(),
    })
}

/// The SVG, utf8 or terminal text of `matrix`.
pub fn render_text(matrix: &QrMatrix, s: &Settings, format: Format) -> String {
    let r = &s.render;
    match format {
        Format::Svg => super::svg::write(matrix, r.margin, s.width, &r.dark, &r.light),
        Format::Terminal if s.small => super::text::terminal_small(matrix, s.inverse),
        Format::Terminal => super::text::terminal(matrix),
        _ => super::text::utf8(matrix, r.margin, &r.dark, &r.light),
    }
}

/// Draws `matrix` through `qr::style`: any `style`, and every JPEG and WebP.
fn render_styled(matrix: &QrMatrix, s: &Settings) -> Result<Vec<u8>> {
    render_styled_timed(matrix, s, &mut Stages::default())
}

/// `render_styled`, saying how long each stage took (the bench's stage table).
pub fn render_styled_timed(matrix: &QrMatrix, s: &Settings, stages: &mut Stages) -> Result<Vec<u8>> {
    let circle = s.style.as_ref().is_some_and(|st| st.circle);
    let r = &s.render;
    let layout = Layout::new(matrix.size, r.margin, r.scale, r.width, circle)?;
    draw_in(matrix, s, layout, stages)
}

/// Draws `matrix` in qr-code-styling's layout `q`.
fn draw_qcs(matrix: &QrMatrix, s: &Settings, q: &QcsLayout) -> Result<Vec<u8>> {
    let circle = s.style.as_ref().is_some_and(|st| st.circle);
    let layout = Layout::qr_code_styling(matrix.size, q.side, q.margin, circle, q.round)?;
    draw_in(matrix, s, layout, &mut Stages::default())
}

/// Draws `matrix` in `s`'s style (plain when it has none) at `layout`.
fn draw_in(matrix: &QrMatrix, s: &Settings, layout: Layout, stages: &mut Stages) -> Result<Vec<u8>> {
    let plain;
    let style = match &s.style {
        Some(style) => style.as_ref(),
        None => {
            plain = Style::plain(s.render.dark, s.render.light);
            &plain
        }
    };
    let format = match s.format {
        Format::Svg => ImageFormat::Svg,
        Format::Jpeg => ImageFormat::Jpeg,
        Format::Webp => ImageFormat::Webp,
        _ => ImageFormat::Png,
    };
    style::draw_timed(matrix, style, layout, format, s.quality, stages)
}

/// The data URL of one input's image.
fn data_url(input: &InputData, s: &Settings) -> Result<String> {
    let bytes = generate(&input.as_input(), s, None)?;
    let prefix = s.format.data_url_prefix();
    let mut url = String::with_capacity(prefix.len() + bytes.len().div_ceil(3) * 4);
    url.push_str(prefix);
    base64::engine::general_purpose::STANDARD.encode_string(&bytes, &mut url);
    Ok(url)
}

/// `err` with the message `qrcode` gives for the same failure (for `qr-native/compat`'s jobs).
pub fn qrcode_error(err: Error, input: &InputData, s: &Settings, kanji: Option<&KanjiTable>) -> Error {
    if err.kind != ErrorKind::DataTooLong {
        return err;
    }
    let too_big = || Error::new(ErrorKind::DataTooLong, "The amount of data is too big to be stored in a QR Code");
    match s.encode.version {
        None => too_big(),
        Some(_) => {
            let auto = EncodeOptions { version: None, ..s.encode };
            match super::min_version(&input.as_input(), &auto, kanji) {
                Ok(Some(min)) => Error::new(
                    ErrorKind::DataTooLong,
                    format!(
                        "\nThe chosen QR Code version cannot contain this amount of data.\nMinimum version required to store current data is: {min}.\n"
                    ),
                ),
                _ => too_big(),
            }
        }
    }
}

/// A module matrix given as `size × size` bytes (0 light, 1 dark) by another encoder
/// (qr-code-styling's), checked to be a QR code's shape: `None` when it is not.
pub fn matrix_of_modules(modules: &[u8], level: EcLevel) -> Option<QrMatrix> {
    let size = (modules.len() as f64).sqrt() as usize;
    let shaped = size * size == modules.len() && (21..=177).contains(&size) && (size - 17).is_multiple_of(4);
    if !shaped || modules.iter().any(|&b| b > 1) {
        return None;
    }
    Some(QrMatrix { version: ((size - 17) / 4) as u8, level, mask: 0, size, modules: modules.to_vec() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn work(job: Job, format: Format) -> QrWork {
        QrWork { job, settings: Settings::new(format), kanji: None, compat: false }
    }

    fn text(t: &str) -> InputData {
        InputData::Text(t.to_string())
    }

    #[test]
    fn every_format_name_parses_and_others_do_not() {
        for (name, f) in
            [("png", Format::Png), ("image/png", Format::Png), ("svg", Format::Svg), ("jpeg", Format::Jpeg)]
        {
            assert_eq!(Format::parse(name), Some(f));
        }
        assert_eq!(Format::parse("webp"), Some(Format::Webp));
        assert_eq!(Format::parse("PNG"), None);
        assert_eq!(Format::parse("gif"), None);
    }

    #[test]
    fn each_job_produces_its_kind_of_output() {
        let ok = || Ok(());
        let png = work(Job::Generate(text("hello")), Format::Png).run(&ok).unwrap();
        assert!(matches!(png, Produced::Bytes(b) if b.starts_with(b"\x89PNG")));
        let url = work(Job::DataUrl(text("hello")), Format::Svg).run(&ok).unwrap();
        assert!(matches!(url, Produced::Text(t) if t.starts_with("data:image/svg+xml;base64,")));
        let utf8 = work(Job::Text(text("hello")), Format::Utf8).run(&ok).unwrap();
        assert!(matches!(utf8, Produced::Text(t) if t.contains('█')));
        let many = work(Job::Many(vec![text("a"), text("b")]), Format::Png).run(&ok).unwrap();
        assert!(matches!(many, Produced::Many(list) if list.len() == 2));
        let jpeg = work(Job::Generate(text("hello")), Format::Jpeg).run(&ok).unwrap();
        assert!(matches!(jpeg, Produced::Bytes(b) if b.starts_with(&[0xFF, 0xD8])));
    }

    #[test]
    fn a_check_that_fails_ends_the_work_before_and_between_inputs() {
        let stop = || Err(Error::new(ErrorKind::Aborted, "stop"));
        let e = work(Job::Generate(text("a")), Format::Png).run(&stop).err().unwrap();
        assert_eq!(e.kind, ErrorKind::Aborted);
        let calls = std::cell::Cell::new(0);
        let second = || {
            calls.set(calls.get() + 1);
            if calls.get() > 2 {
                Err(Error::new(ErrorKind::Aborted, "stop"))
            } else {
                Ok(())
            }
        };
        let e = work(Job::Many(vec![text("a"), text("b"), text("c")]), Format::Png).run(&second).err().unwrap();
        assert_eq!(e.kind, ErrorKind::Aborted);
        assert_eq!(calls.get(), 3, "asked before the work and before each input, stopped at the second");
    }

    #[test]
    fn compat_jobs_say_what_qrcode_says_when_the_data_is_too_long() {
        let mut w = work(Job::Generate(text(&"x".repeat(100))), Format::Png);
        w.settings.encode.version = Some(1);
        assert_eq!(w.run(&|| Ok(())).err().unwrap().kind, ErrorKind::DataTooLong);
        w.compat = true;
        let e = w.run(&|| Ok(())).err().unwrap();
        assert!(e.message.contains("Minimum version required to store current data is: 6."), "{}", e.message);
        let mut w = work(Job::Generate(text(&"x".repeat(5000))), Format::Png);
        w.compat = true;
        let e = w.run(&|| Ok(())).err().unwrap();
        assert_eq!(e.message, "The amount of data is too big to be stored in a QR Code");
    }

    #[test]
    fn a_matrix_of_modules_must_have_a_qr_codes_shape() {
        assert!(matrix_of_modules(&vec![0; 21 * 21], EcLevel::M).is_some_and(|m| m.version == 1));
        assert!(matrix_of_modules(&vec![1; 177 * 177], EcLevel::M).is_some_and(|m| m.version == 40));
        assert!(matrix_of_modules(&vec![0; 22 * 22], EcLevel::M).is_none(), "22 is no QR size");
        assert!(matrix_of_modules(&vec![0; 21 * 21 + 1], EcLevel::M).is_none(), "not square");
        assert!(matrix_of_modules(&vec![2; 21 * 21], EcLevel::M).is_none(), "modules are 0 or 1");
        assert!(matrix_of_modules(&[], EcLevel::M).is_none());
    }
}
