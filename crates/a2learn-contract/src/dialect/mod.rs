//! Other projects' shapes, translated into the contract once, for every reader here.
//!
//! - [`ile`]: the upstream project (interactive-learning-experiences): its widget kinds,
//!   telemetry rows and chat reports.

pub mod ile;
