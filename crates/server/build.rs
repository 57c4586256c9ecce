//! Rebuilds the server when the browser client's files change: they are embedded with
//! `include_dir!`, which does not tell Cargo about them itself.

fn main() {
    println!("cargo:rerun-if-changed=../../web");
}
