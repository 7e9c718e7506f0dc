//! `a2learn-teacher`: the command-line face of the core.

fn main() -> std::process::ExitCode {
    a2learn_teacher_cli::cli::main()
}
