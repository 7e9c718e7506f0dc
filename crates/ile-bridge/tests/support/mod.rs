//! What the bridge's tests share (and the CLI crate's bridge test, by path).
#![allow(dead_code)] // each test file uses a different part

#[path = "../../../../tests/support/peers.rs"]
pub mod peers;
pub mod upstream;
