//! The reference pathway host (`shared/spec/pathway-host.md`): exactly the interface a
//! dashboard talks to, with a seeded class simulation behind it and switches to make it
//! misbehave. The dashboard's tests run against it, and the desktop app embeds it as its
//! demo.
//!
//! - **MCP** over Streamable HTTP at `{url}/mcp` (rmcp): `create_class`, `list_pathways`,
//!   `assign_pathway` (idempotent per class and pathway), `get_pathway_results`, `claim`,
//!   `respond`, and the room controls of §3: `pause_class` (the class's learners emit
//!   nothing until `resume_class`) and `set_pacing` (learners open no step of a pathway after
//!   `up_to`), echoed on the feed as `a2learn.host.class_paused` / `class_resumed` / `pacing`.
//!   Results are `structuredContent`; failures are `isError: true` with
//!   `structuredContent.error = {code, message}`.
//! - **The class feed**, AG-UI over SSE at `{url}/ag-ui/classes/{class_id}/events`:
//!   `RUN_STARTED` and `STATE_SNAPSHOT` (no `id:`; `{class_id, learners, assignments,
//!   paused, pacing}`), then every logged frame after
//!   `Last-Event-ID` as `id: <seq>` + `data: <event>`, then live frames, `: ping` when idle,
//!   `RUN_FINISHED` on [`RunningHost::shutdown`].
//! - **Auth**: `Authorization: Bearer <token>` on every request, else 401 with an empty body.
//!   A token is never logged; `claim` records the teacher as [`teacher_id`] of the token.
//! - **Simulation** ([`sim`]): every class with an assignment gets `learners` anonymous
//!   learners who work through its pathways from the [`catalog`], at `speed` times real
//!   pace. Assist and score requests expire at their deadline with a `timeout` response.
//! - **Faults** ([`Faults`], [`Injection`]): dropped connections, duplicate frames, stalls,
//!   malformed frames and contract-breaking payloads (logged with the rule that must reject
//!   them).
//! - **Restart**: with a `log_path`, classes, assignments, learners and every frame (with
//!   its `seq`) are appended to a JSON-lines file and restored on start; open calls,
//!   claims, pause and pacing are rebuilt from the frames.
//!
//! ```no_run
//! # async fn demo() -> Result<(), pathway_host::HostError> {
//! use pathway_host::{HostConfig, start};
//! let host = start(HostConfig::demo("secret-token")).await?;
//! let (class_id, _join_code) = host.create_class("Grade 4, room 12")?;
//! host.assign(&class_id, "fractions-compare-4", None, None)?;
//! println!("feed: {}", host.feed_url(&class_id));
//! host.shutdown().await;
//! # Ok(()) }
//! ```
//!
//! Time: the host reads its [`Clock`] once at start; after that its time is the
//! scheduler's ([`TimeMode::Real`]: following the monotonic clock; [`TimeMode::Manual`]:
//! only [`RunningHost::advance`] moves it, so a seed and the same calls give the same log,
//! byte for byte, given a [`FixedClock`]).

pub mod catalog;
pub mod cli;
pub mod clock;
pub mod config;
pub mod error;
mod feed;
pub mod inject;
mod mcp;
mod persist;
pub mod rng;
mod server;
pub mod sim;
mod state;

pub use crate::state::{Assignment, Call, CallState, ClassInfo, LoggedFrame};
pub use catalog::{Pathway, Step};
pub use clock::{Clock, FixedClock, SystemClock};
pub use config::{DEFAULT_PORT, DEMO_HELP_WAIT, DEMO_SPEED, Faults, HostConfig, TimeMode};
pub use error::{ErrorCode, HostError, ToolError};
pub use inject::Injection;
pub use mcp::HostTools;
pub use server::{FeedConnection, FeedWriter, RunningHost, start, teacher_id};
