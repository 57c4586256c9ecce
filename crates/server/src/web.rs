//! The browser client's files, embedded in the binary from the repository's `web/` folder and
//! served at `/` (with the client's own pages — `/t/{id}`, a table's invite link, `/replay/{id}`
//! and `/replay`, a finished game's or a local file's replay, `/analysis/{id}`, a hand's analysis, `/rules`, `/account` — serving the same page). Every file is sent with an `ETag` and `Cache-Control:
//! no-cache`, so a browser revalidates (a `304` when nothing changed) and a new binary's client is
//! picked up at once.
//!
//! For developing the client, [`set_web_dir`] (`yezi serve --web-dir web`) serves the files from
//! a folder on disk instead, read on every request.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use include_dir::{Dir, include_dir};
use sha2::{Digest, Sha256};

use crate::App;

static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../web");

static WEB_DIR: OnceLock<PathBuf> = OnceLock::new();

/// Serves the client's files from `dir` on disk instead of the embedded copy (for developing the
/// client: edits show on reload without rebuilding). Only the first call counts. The folder is
/// taken by its real path, and a file whose real path (its symbolic links followed) leaves it is
/// not served.
pub fn set_web_dir(dir: PathBuf) -> std::io::Result<()> {
    let real = dir.canonicalize()?;
    let _ = WEB_DIR.set(real);
    Ok(())
}

/// The routes of the static files.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/", get(index))
        .route("/t/{id}", get(index))
        .route("/replay", get(index))
        .route("/replay/{id}", get(index))
        .route("/analysis/{id}", get(index))
        .route("/rules", get(index))
        .route("/tutorial/{game}", get(index))
        .route("/account", get(index))
        .route("/ratings", get(index))
        .route("/puzzles", get(index))
        .route("/events", get(index))
        .route("/events/{id}", get(index))
        .route("/tournaments", get(index))
        .route("/tournaments/{id}", get(index))
        .route("/players/{name}", get(index))
        .route("/tv", get(index))
        .route("/tv/{id}", get(index))
        .route("/friends", get(index))
        .route("/{*path}", get(file))
}

/// The `Content-Type` of a file, by its extension.
pub fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "webmanifest" => "application/manifest+json",
        "txt" | "md" | "ts" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], "not found\n")
        .into_response()
}

fn contents(path: &str) -> Option<Vec<u8>> {
    match WEB_DIR.get() {
        Some(dir) => {
            let real = dir.join(path).canonicalize().ok()?;
            if !real.starts_with(dir) || !real.is_file() {
                return None;
            }
            std::fs::read(real).ok()
        }
        None => WEB.get_file(path).map(|f| f.contents().to_vec()),
    }
}

fn serve(path: &str, headers: &HeaderMap) -> Response {
    let Some(body) = contents(path) else { return not_found() };
    let digest = Sha256::digest(&body);
    let etag: String = format!("\"{}\"", digest[..12].iter().map(|b| format!("{b:02x}")).collect::<String>());
    let cache = (header::CACHE_CONTROL, "no-cache");
    let matches = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    if matches {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, etag.as_str()), cache]).into_response();
    }
    ([(header::CONTENT_TYPE, content_type(path)), (header::ETAG, etag.as_str()), cache], body).into_response()
}

async fn index(headers: HeaderMap) -> Response {
    serve("index.html", &headers)
}

async fn file(Path(path): Path<String>, headers: HeaderMap) -> Response {
    if path.split('/').any(|p| p == ".." || p == "." || p.is_empty() || p.starts_with('.'))
        || path.contains('\\')
    {
        return not_found();
    }
    serve(&path, &headers)
}

#[cfg(test)]
mod tests {
    use super::{WEB, content_type};

    /// The installable app's files are in the binary, each with its type: the service worker at
    /// the site's root (its scope is then the whole site), the manifest and every icon it lists,
    /// the "no connection" page.
    #[test]
    fn the_installable_apps_files_are_embedded_with_their_types() {
        for (path, ty) in [
            ("sw.js", "text/javascript; charset=utf-8"),
            ("manifest.webmanifest", "application/manifest+json"),
            ("offline.html", "text/html; charset=utf-8"),
        ] {
            assert!(WEB.get_file(path).is_some(), "{path} is embedded");
            assert_eq!(content_type(path), ty, "{path}");
        }
        let manifest: serde_json::Value =
            serde_json::from_slice(WEB.get_file("manifest.webmanifest").unwrap().contents()).unwrap();
        assert_eq!(manifest["start_url"], "/");
        let icons = manifest["icons"].as_array().unwrap();
        for size in ["192x192", "512x512"] {
            assert!(
                icons.iter().any(|i| i["sizes"] == size && i["type"] == "image/png"),
                "a {size} PNG icon"
            );
        }
        for icon in icons {
            let path = icon["src"].as_str().unwrap().trim_start_matches('/');
            let file = WEB.get_file(path).unwrap_or_else(|| panic!("{path} is embedded"));
            if path.ends_with(".png") {
                assert_eq!(&file.contents()[..8], b"\x89PNG\r\n\x1a\n", "{path} is a PNG");
            }
        }
    }
}
