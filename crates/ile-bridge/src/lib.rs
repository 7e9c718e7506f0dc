//! The bridge to the upstream project's classes (`adamstankiewicz/interactive-learning-experiences`):
//! its PostgreSQL database, read-only, served as a pathway host (`pathway-host.md` §1-2). What maps
//! to what is `a2learn_contract::dialect::ile`; this crate reads the database and serves.
//!
//! Built so far: [`horizon`], reading the append-only `interactions` table in an order that
//! never skips a row that commits late. The server (MCP tools, the class feed) comes next.

pub mod horizon;
