//! Styled codes: module shapes, finder shapes, colours and gradients, drawn as vector
//! outlines (`shapes.rs`) that both writers share: the rasteriser (`raster.rs`: PNG, JPEG,
//! WebP through tiny-skia) and the SVG writer (`svg.rs`). The shapes and their placement are
//! qr-code-styling's, so that a code looks the same whichever package drew it.
//!
//! Nothing here knows JavaScript: the binding layer parses the options into a [`Style`].

pub mod logo;
pub mod raster;
pub mod scene;
pub mod shapes;
pub mod spec;
pub mod svg;

#[cfg(test)]
mod tests;

pub use spec::*;

use crate::error::Result;
use crate::qr::QrMatrix;

/// Image formats the styled path writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    Png,
    Svg,
    Jpeg,
    Webp,
}

/// Time spent in each stage of `draw`, in nanoseconds (the bench's per-stage table).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stages {
    /// Reading the logo file and placing it within the budget.
    pub logo: f64,
    /// Figures and paints laid out.
    pub layout: f64,
    /// Filling the outlines (and drawing the logo) into pixels; SVG: writing the document.
    pub raster: f64,
    /// PNG, JPEG or WebP encoding; nothing for SVG.
    pub compress: f64,
}

/// Draws `matrix` in `style` as `format` (`quality` for JPEG).
pub fn draw(matrix: &QrMatrix, style: &Style, layout: Layout, format: ImageFormat, quality: u8) -> Result<Vec<u8>> {
    draw_timed(matrix, style, layout, format, quality, &mut Stages::default())
}

/// `draw`, recording each stage's time in `stages`.
pub fn draw_timed(
    matrix: &QrMatrix,
    style: &Style,
    layout: Layout,
    format: ImageFormat,
    quality: u8,
    stages: &mut Stages,
) -> Result<Vec<u8>> {
    let mark = |from: std::time::Instant| from.elapsed().as_nanos() as f64;
    let mut t = Stages::default();
    let at = std::time::Instant::now();
    let logo = match &style.logo {
        None => None,
        Some(spec) => {
            // The same logo again (a server's own) is decoded once: `logo::decode_cached`.
            let image = logo::decode_cached(&spec.file)?;
            match spec.qr_code_styling {
                Some((image_size, round)) => {
                    let q = logo::place_qr_code_styling(image_size, spec.margin, matrix.level, &layout, &image, round);
                    Some(scene::LogoInput { image, placement: q.hidden, qr_code_styling: Some(q.rect) })
                }
                None => {
                    let placement = logo::place(spec, matrix.version, matrix.level, matrix.size, &image)?;
                    Some(scene::LogoInput { image, placement, qr_code_styling: None })
                }
            }
        }
    };
    t.logo = mark(at);
    let at = std::time::Instant::now();
    let scene = scene::scene(matrix, style, layout, logo);
    t.layout = mark(at);
    let at = std::time::Instant::now();
    let out = match format {
        ImageFormat::Svg => {
            let svg = svg::write(&scene).into_bytes();
            t.raster = mark(at);
            svg
        }
        raster_format => {
            let pixmap = raster::paint(&scene)?;
            t.raster = mark(at);
            let at = std::time::Instant::now();
            let bytes = match raster_format {
                ImageFormat::Jpeg => raster::jpeg(&pixmap, quality),
                ImageFormat::Webp => raster::webp(pixmap),
                _ => raster::png(pixmap),
            }?;
            t.compress = mark(at);
            bytes
        }
    };
    *stages = t;
    Ok(out)
}
