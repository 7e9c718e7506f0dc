//! The `a2learn-teacher` command line and its benchmarks: thin adapters over the core crate
//! (`a2learn-teacher`), kept out of it so the core needs no clap, no logging set-up and no
//! reference host.

pub mod bench;
pub mod cli;
