//! The a2learn interaction contract (see `shared/spec/contract.md`).
