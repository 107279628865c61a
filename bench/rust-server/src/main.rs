//! GET /qrcode?text=… with the same Rust encoder and PNG writer as the addon, on axum and
//! tokio: the pure-Rust reference of the HTTP tier table. Prints `listening PORT`.

use axum::extract::Query;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use qr_native::qr::png::PngWriter;
use qr_native::qr::render::RenderOptions;
use qr_native::qr::{encode, EncodeOptions, QrInput};

#[derive(serde::Deserialize)]
struct Params {
    text: Option<String>,
}

async fn qrcode(Query(p): Query<Params>) -> Response {
    let Some(text) = p.text.filter(|t| !t.is_empty() && t.chars().count() <= 512) else {
        return (StatusCode::BAD_REQUEST, "query parameter \"text\" is required, at most 512 characters\n").into_response();
    };
    let png = encode(&QrInput::Text(&text), &EncodeOptions::default())
        .and_then(|m| PngWriter::default().write(&m, &RenderOptions::default()));
    match png {
        Ok(bytes) => ([(header::CONTENT_TYPE, "image/png")], bytes).into_response(),
        Err(e) => (StatusCode::BAD_REQUEST, e.message).into_response(),
    }
}

#[tokio::main]
async fn main() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1");
    println!("listening {}", listener.local_addr().expect("local address").port());
    axum::serve(listener, axum::Router::new().route("/qrcode", get(qrcode))).await.expect("serve");
}
