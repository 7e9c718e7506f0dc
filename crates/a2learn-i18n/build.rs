//! Embeds every catalog file under the repository's `locales/` (the same files the UI bundles),
//! so adding a file or a language needs no change to the code that loads them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../locales");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files: Vec<(String, String, PathBuf)> = Vec::new();
    let langs = std::fs::read_dir(&root).expect("locales/ beside the workspace");
    for lang in langs {
        let lang = lang.expect("a locales/ entry");
        if !lang.path().is_dir() {
            continue;
        }
        println!("cargo:rerun-if-changed={}", lang.path().display());
        for file in std::fs::read_dir(lang.path()).expect("a language folder") {
            let path = file.expect("a catalog file").path();
            if path.extension().is_some_and(|e| e == "ftl") {
                println!("cargo:rerun-if-changed={}", path.display());
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                files.push((lang.file_name().to_string_lossy().into_owned(), name, path));
            }
        }
    }
    files.sort();
    let mut out = String::from(
        "/// (language folder, file name, text) of every catalog file.\npub static FILES: &[(&str, &str, &str)] = &[\n",
    );
    for (lang, name, path) in &files {
        let abs = path.canonicalize().expect("a catalog path");
        writeln!(
            out,
            "    ({lang:?}, {name:?}, include_str!({:?})),",
            abs.display().to_string()
        )
        .expect("write to a String");
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("catalogs.rs");
    std::fs::write(dest, out).expect("write catalogs.rs");
}
