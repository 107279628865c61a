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

/// Draws `matrix` in `style` as `format` (`quality` for JPEG).
pub fn draw(matrix: &QrMatrix, style: &Style, layout: Layout, format: ImageFormat, quality: u8) -> Result<Vec<u8>> {
    let logo = match &style.logo {
        None => None,
        Some(spec) => {
            let image = logo::decode(&spec.file)?;
            let placement = logo::place(spec, matrix.version, matrix.level, matrix.size, &image)?;
            Some(scene::LogoInput { image, placement })
        }
    };
    let scene = scene::scene(matrix, style, layout, logo);
    match format {
        ImageFormat::Svg => Ok(svg::write(&scene).into_bytes()),
        raster_format => {
            let pixmap = raster::paint(&scene)?;
            match raster_format {
                ImageFormat::Jpeg => raster::jpeg(&pixmap, quality),
                ImageFormat::Webp => raster::webp(pixmap),
                _ => raster::png(pixmap),
            }
        }
    }
}
