//! One error shape for every failure the package reports. Each kind maps to one JavaScript
//! error class and `code` (Node's conventions), so the binding layer converts it in one place.

use std::fmt;

/// What went wrong, which decides the JavaScript class and `code`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// `TypeError`, `ERR_INVALID_ARG_TYPE`: an argument of the wrong type.
    InvalidArgType,
    /// `TypeError`, `ERR_INVALID_ARG_VALUE`: right type, value not allowed.
    InvalidArgValue,
    /// `RangeError`, `ERR_OUT_OF_RANGE`: a number outside its range, or not an integer.
    OutOfRange,
    /// `RangeError`, `ERR_QR_DATA_TOO_LONG`: data that does not fit a QR code.
    DataTooLong,
    /// `SyntaxError`, `ERR_INVALID_PATTERN`: a pattern that cannot be compiled.
    InvalidPattern,
    /// `Error` named `AbortError`, `ABORT_ERR`: the caller's signal aborted the operation.
    Aborted,
    /// `Error`, `ERR_INTERNAL`: a fault inside the package (a caught panic).
    Internal,
    /// `Error`, `ERR_QR_NATIVE_QUEUE_FULL`: the call was refused because the queue is full.
    QueueFull,
    /// `TypeError`, `ERR_QR_STYLE_UNREADABLE`: a style that decoders were measured not to read.
    StyleUnreadable,
    /// `RangeError`, `ERR_QR_LOGO_TOO_LARGE`: a logo that hides more than the budget allows.
    LogoTooLarge,
    /// `Error`, `ERR_QR_NATIVE_DISPOSED`: a method called on a `Matcher` after its dispose.
    Disposed,
}

impl ErrorKind {
    /// The `code` property JavaScript sees.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::InvalidArgType => "ERR_INVALID_ARG_TYPE",
            ErrorKind::InvalidArgValue => "ERR_INVALID_ARG_VALUE",
            ErrorKind::OutOfRange => "ERR_OUT_OF_RANGE",
            ErrorKind::DataTooLong => "ERR_QR_DATA_TOO_LONG",
            ErrorKind::InvalidPattern => "ERR_INVALID_PATTERN",
            ErrorKind::Aborted => "ABORT_ERR",
            ErrorKind::Internal => "ERR_INTERNAL",
            ErrorKind::QueueFull => "ERR_QR_NATIVE_QUEUE_FULL",
            ErrorKind::StyleUnreadable => "ERR_QR_STYLE_UNREADABLE",
            ErrorKind::LogoTooLarge => "ERR_QR_LOGO_TOO_LARGE",
            ErrorKind::Disposed => "ERR_QR_NATIVE_DISPOSED",
        }
    }
}

/// A failure with a message that names the argument, the problem and the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self { kind, message: message.into() }
    }

    pub fn invalid_type(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgType, message)
    }

    pub fn invalid_value(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgValue, message)
    }

    pub fn out_of_range(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::OutOfRange, message)
    }

    /// Node's `ERR_OUT_OF_RANGE`, worded as Node words it: `The value of "NAME" is out of
    /// range. It must be RULE. Received GOT`. Every range check of the binding and the cores
    /// builds its message here.
    pub fn range(name: impl std::fmt::Display, rule: impl std::fmt::Display, got: impl std::fmt::Display) -> Self {
        Self::out_of_range(format!("The value of \"{name}\" is out of range. It must be {rule}. Received {got}"))
    }

    pub fn aborted() -> Self {
        Self::new(ErrorKind::Aborted, "The operation was aborted")
    }

    /// An internal fault from a caught panic; the payload is kept for diagnosis.
    pub fn from_panic(payload: &(dyn std::any::Any + Send)) -> Self {
        let detail = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        Self::new(ErrorKind::Internal, format!("internal error in qr-native: {detail}"))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.kind.code())
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// Runs `f`, turning a panic into an `ERR_INTERNAL` error so it never unwinds into Node.
pub fn catch_panic<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => Err(Error::from_panic(payload.as_ref())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_internal_error() {
        let err = catch_panic::<()>(|| panic!("boom")).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Internal);
        assert!(err.message.contains("boom"));
    }
}
