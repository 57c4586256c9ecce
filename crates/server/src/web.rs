//! The browser client's files, embedded in the binary from the repository's `web/` folder and
//! served at `/` (with `/t/{id}`, a table's invite link, serving the same page).

use std::sync::Arc;

use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use include_dir::{Dir, include_dir};

use crate::App;

static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../web");

/// The routes of the static files.
pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/", get(index)).route("/t/{id}", get(index)).route("/{*path}", get(file))
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn serve(path: &str) -> Response {
    match WEB.get_file(path) {
        Some(f) => ([(header::CONTENT_TYPE, content_type(path))], f.contents()).into_response(),
        None => (StatusCode::NOT_FOUND, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], "not found\n")
            .into_response(),
    }
}

async fn index() -> Response {
    serve("index.html")
}

async fn file(Path(path): Path<String>) -> Response {
    if path.split('/').any(|p| p == ".." || p.is_empty()) {
        return (StatusCode::NOT_FOUND, "not found\n").into_response();
    }
    serve(&path)
}
