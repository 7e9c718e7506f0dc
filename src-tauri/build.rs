/// The app's commands (see commands.in): declaring them makes each one deny-by-default, so a
/// window reaches only the commands its capability file grants.
const COMMANDS: &[&str] = &include!("commands.in");

fn main() {
    println!("cargo:rerun-if-changed=commands.in");
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS)),
    )
    .unwrap_or_else(|e| panic!("tauri-build: {e:#}"));
}
