//! `options.style` as JavaScript gives it, checked and converted to `qr::style::Style` on the
//! main thread. Every length is checked before its elements are read (a million colour
//! stops cost one property read).

use super::js::{self, Val};
use crate::error::{Error, Result};
use crate::qr::render::{Colour, MAX_SIDE};
use crate::qr::style::{
    logo, CentreShape, DotShape, Gradient, GradientKind, LogoSpec, Paint, RingShape, Stop, Style, MAX_STOPS,
};
use napi::ValueType;

/// A colour option: `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`.
pub fn colour(name: &str, v: Option<Val>, default: Colour) -> Result<Colour> {
    let Some(v) = v else { return Ok(default) };
    if v.value_type() == ValueType::Undefined {
        return Ok(default);
    }
    let text = js::string_of(name, &v)?;
    Colour::parse(&text).ok_or_else(|| {
        Error::invalid_value(format!(
            "The argument '{name}' must be a hex colour '#rgb', '#rgba', '#rrggbb' or '#rrggbbaa'. Received '{text}'"
        ))
    })
}

use js::number_in;

fn object(name: &str, v: &Val) -> Result<()> {
    if v.value_type() != ValueType::Object || v.is_array() {
        return Err(js::wrong_type(name, "of type object", v));
    }
    Ok(())
}

/// A present, not-undefined property.
fn field(v: &Val, key: &str) -> Result<Option<Val>> {
    Ok(v.prop(key)?.filter(|p| p.value_type() != ValueType::Undefined))
}

fn one_of<T>(name: &str, v: &Val, names: &[&str], parse: impl Fn(&str) -> Option<T>) -> Result<T> {
    let text = js::string_of(name, v)?;
    parse(&text).ok_or_else(|| {
        let list = names.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", ");
        Error::invalid_value(format!("The argument '{name}' must be one of {list}. Received '{text}'"))
    })
}

fn gradient(name: &str, v: &Val) -> Result<Gradient> {
    object(name, v)?;
    let kind = match field(v, "type")? {
        None => GradientKind::Linear,
        Some(t) => one_of(&format!("{name}.type"), &t, &["linear", "radial"], |s| match s {
            "linear" => Some(GradientKind::Linear),
            "radial" => Some(GradientKind::Radial),
            _ => None,
        })?,
    };
    let rotation = match field(v, "rotation")? {
        None => 0.0,
        Some(r) => number_in(&format!("{name}.rotation"), &r, -1e6, 1e6)?,
    };
    let stops_name = format!("{name}.colorStops");
    let Some(list) = field(v, "colorStops")? else {
        return Err(Error::invalid_type(format!(
            "The \"{stops_name}\" argument must be an instance of Array. Received undefined"
        )));
    };
    if !list.is_array() {
        return Err(js::wrong_type(&stops_name, "an instance of Array", &list));
    }
    let n = list.array_len();
    if !(2..=MAX_STOPS as u32).contains(&n) {
        return Err(Error::range(format_args!("{stops_name}.length"), format_args!(">= 2 and <= {MAX_STOPS}"), n));
    }
    let mut stops = Vec::with_capacity(n as usize);
    for i in 0..n {
        let item_name = format!("{stops_name}[{i}]");
        let item = list.element(i)?;
        object(&item_name, &item)?;
        let offset = match field(&item, "offset")? {
            Some(o) => number_in(&format!("{item_name}.offset"), &o, 0.0, 1.0)?,
            None => {
                return Err(Error::invalid_type(format!(
                    "The \"{item_name}.offset\" argument must be of type number. Received undefined"
                )))
            }
        };
        let Some(c) = field(&item, "color")? else {
            return Err(Error::invalid_type(format!(
                "The \"{item_name}.color\" argument must be of type string. Received undefined"
            )));
        };
        let colour = colour(&format!("{item_name}.color"), Some(c), Colour::BLACK)?;
        stops.push(Stop { offset: offset as f32, colour });
    }
    Gradient::new(kind, rotation, stops).map_err(|e| Error::new(e.kind, format!("{name}: {}", e.message)))
}

/// `{ color?, gradient? }`: a gradient wins over a colour. `None` when neither is given.
fn paint(name: &str, v: &Val) -> Result<Option<Paint>> {
    if let Some(g) = field(v, "gradient")? {
        return Ok(Some(Paint::Gradient(gradient(&format!("{name}.gradient"), &g)?)));
    }
    match field(v, "color")? {
        Some(c) => Ok(Some(Paint::Solid(colour(&format!("{name}.color"), Some(c), Colour::BLACK)?))),
        None => Ok(None),
    }
}

/// `{ image, size?, margin?, hideBackgroundDots? }`; the file is copied here, on the main
/// thread, after its length is checked (the caller may detach or reuse its buffer at once).
fn read_logo(v: &Val) -> Result<LogoSpec> {
    object("options.style.logo", v)?;
    let Some(image) = field(v, "image")? else {
        return Err(Error::invalid_type(
            "The \"options.style.logo.image\" argument must be an instance of Buffer or Uint8Array. Received undefined",
        ));
    };
    let file = match image.typed_bytes() {
        Some([]) => {
            return Err(Error::invalid_value(
                "The argument 'options.style.logo.image' must not be empty (a zero-length or detached buffer)",
            ))
        }
        Some(bytes) if bytes.len() > logo::MAX_FILE_BYTES => {
            return Err(Error::range(
                "options.style.logo.image.length",
                format_args!("<= {} (16 MiB)", logo::MAX_FILE_BYTES),
                bytes.len(),
            ))
        }
        Some(bytes) => bytes.to_vec(),
        None => return Err(js::wrong_type("options.style.logo.image", "an instance of Buffer or Uint8Array", &image)),
    };
    let size = match field(v, "size")? {
        None => None,
        Some(s) => {
            let n = number_in("options.style.logo.size", &s, 0.0, logo::MAX_SIZE)?;
            if n == 0.0 {
                return Err(Error::range("options.style.logo.size", "> 0 and <= 0.5", 0));
            }
            Some(n)
        }
    };
    let margin = match field(v, "margin")? {
        None => 0.0,
        Some(m) => number_in("options.style.logo.margin", &m, 0.0, MAX_SIDE as f64)?,
    };
    let hide_dots = match field(v, "hideBackgroundDots")? {
        None => true,
        Some(h) => js::bool_of("options.style.logo.hideBackgroundDots", &h)?,
    };
    Ok(LogoSpec { file, size, margin, hide_dots, qr_code_styling: None })
}

/// `{ modules: true }` on a finder part: the part module by module in the dot type its
/// `type` names, even one that names a figure too (`square`, `extra-rounded`), as
/// qr-code-styling draws a part whose type it is not given.
fn modules(name: &str, part: &Val, shape: &str) -> Result<Option<DotShape>> {
    let Some(m) = field(part, "modules")? else { return Ok(None) };
    if !js::bool_of(&format!("{name}.modules"), &m)? {
        return Ok(None);
    }
    DotShape::parse(shape)
        .map(Some)
        .ok_or_else(|| Error::invalid_value(format!("{name}.modules needs a dot type; '{shape}' is not one")))
}

/// Reads `options.style`; `dark` and `light` are `options.color`'s, the defaults of the
/// dots' and the background's paint.
pub fn read_style(v: &Val, dark: Colour, light: Colour, check: bool) -> Result<Style> {
    object("options.style", v)?;
    let mut style = Style::plain(dark, light);
    if let Some(d) = field(v, "dots")? {
        object("options.style.dots", &d)?;
        if let Some(t) = field(&d, "type")? {
            style.dots = one_of("options.style.dots.type", &t, &DotShape::NAMES, DotShape::parse)?;
        }
        if let Some(p) = paint("options.style.dots", &d)? {
            style.dots_paint = p;
        }
    }
    if let Some(c) = field(v, "cornersSquare")? {
        object("options.style.cornersSquare", &c)?;
        if let Some(t) = field(&c, "type")? {
            style.ring = one_of("options.style.cornersSquare.type", &t, &RingShape::NAMES, RingShape::parse)?;
        }
        if let Some(d) = modules("options.style.cornersSquare", &c, style.ring.name())? {
            style.ring = RingShape::Modules(d);
        }
        style.ring_paint = paint("options.style.cornersSquare", &c)?;
    }
    if let Some(c) = field(v, "cornersDot")? {
        object("options.style.cornersDot", &c)?;
        if let Some(t) = field(&c, "type")? {
            style.centre = one_of("options.style.cornersDot.type", &t, &CentreShape::NAMES, CentreShape::parse)?;
        }
        if let Some(d) = modules("options.style.cornersDot", &c, style.centre.name())? {
            style.centre = CentreShape::Modules(d);
        }
        style.centre_paint = paint("options.style.cornersDot", &c)?;
    }
    if let Some(b) = field(v, "background")? {
        object("options.style.background", &b)?;
        if let Some(p) = paint("options.style.background", &b)? {
            style.background = p;
        }
        if let Some(r) = field(&b, "round")? {
            style.round = number_in("options.style.background.round", &r, 0.0, 1.0)?;
        }
    }
    if let Some(s) = field(v, "shape")? {
        style.circle = one_of("options.style.shape", &s, &["square", "circle"], |s| match s {
            "square" => Some(false),
            "circle" => Some(true),
            _ => None,
        })?;
    }
    if let Some(l) = field(v, "logo")? {
        style.logo = Some(read_logo(&l)?);
    }
    if check {
        style.check_readable()?;
    }
    Ok(style)
}
