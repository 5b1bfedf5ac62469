//! Where the unit tests find the third-party data of ../shared.

/// `relative` in ../shared (or `$KIBITZER_SHARED`), or `None` with a note where it is
/// absent (tests/skips.rs reports such a run).
pub fn shared_path(relative: &str) -> Option<std::path::PathBuf> {
    let dir = std::env::var("KIBITZER_SHARED")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../shared").to_owned());
    let path = std::path::Path::new(&dir).join(relative);
    if !path.exists() {
        eprintln!("skipping: {} not found", path.display());
        return None;
    }
    Some(path)
}
