//! The MCP tools of `pathway-host.md` §1, the optional room controls of §3 (`pause_class`,
//! `resume_class`, `set_pacing`) and the optional `list_classes` a district follower uses
//! (proposed for §3; see `docs/list-classes.md`), over Streamable HTTP (rmcp).
//!
//! Results are `structuredContent`; failures are tool results with `isError: true` and
//! `structuredContent.error = {code, message}`. Arguments that do not even deserialize
//! (a missing required field, a wrong type) are rejected by rmcp as JSON-RPC invalid params
//! before the tool runs.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::Extension;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::catalog;
use crate::error::ToolError;
use crate::server::{Shared, TeacherId};

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CreateClassArgs {
    /// The class's title, 1 to 200 characters.
    pub title: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AssignArgs {
    pub class_id: String,
    pub pathway_id: String,
    /// RFC 3339.
    #[serde(default)]
    pub due_at: Option<String>,
    /// At most 2000 characters.
    #[serde(default)]
    pub teacher_note: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ResultsArgs {
    pub class_id: String,
    pub pathway_id: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ClaimArgs {
    pub call_id: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct RespondArgs {
    pub call_id: String,
    /// Score: `{correct, score, feedback?}`; assist: `{answer, answered_by: "teacher"}`.
    #[serde(default)]
    pub value: Option<Value>,
    /// `{code, message}`, e.g. code `declined`.
    #[serde(default)]
    pub error: Option<Value>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PauseArgs {
    pub class_id: String,
    /// What the paused widgets show, at most 200 characters.
    #[serde(default)]
    pub message: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ClassArgs {
    pub class_id: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PacingArgs {
    pub class_id: String,
    pub pathway_id: String,
    /// A `widget_id` of the pathway: learners open no step after it. `null`: no limit.
    pub up_to: Option<String>,
}

/// The tool handler; one per MCP session, all sharing the host.
#[derive(Clone)]
pub struct HostTools {
    shared: Arc<Shared>,
    tool_router: ToolRouter<Self>,
}

impl HostTools {
    pub(crate) fn new(shared: Arc<Shared>) -> Self {
        let mut tool_router = Self::tool_router();
        if !shared.room_tools {
            // A host without the optional tools: they are neither listed nor callable.
            for tool in ["pause_class", "resume_class", "set_pacing"] {
                tool_router.remove_route(tool);
            }
        }
        if !shared.class_list {
            tool_router.remove_route("list_classes");
        }
        for tool in shared.faults().missing_tools {
            tool_router.remove_route(&tool);
        }
        HostTools {
            shared,
            tool_router,
        }
    }
}

fn result(outcome: Result<Value, ToolError>) -> Result<CallToolResult, rmcp::ErrorData> {
    Ok(match outcome {
        Ok(value) => CallToolResult::structured(value),
        Err(e) => CallToolResult::structured_error(e.to_json()),
    })
}

fn teacher(parts: &axum::http::request::Parts) -> Result<String, ToolError> {
    // The auth layer put it there; without it the request would not have reached us.
    parts
        .extensions
        .get::<TeacherId>()
        .map(|t| t.0.clone())
        .ok_or_else(|| ToolError::invalid("no teacher identity on the request"))
}

#[tool_router]
impl HostTools {
    #[tool(description = "Create a class. Returns {class_id, join_code}.")]
    fn create_class(
        &self,
        Parameters(args): Parameters<CreateClassArgs>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        result(
            self.shared
                .sync()
                .create_class(&args.title)
                .map(|(class_id, join_code)| {
                    // The broken host of `Faults::no_join_code`: a class nobody can join.
                    let join_code = if self.shared.faults().no_join_code {
                        String::new()
                    } else {
                        join_code
                    };
                    json!({"class_id": class_id, "join_code": join_code})
                }),
        )
    }

    #[tool(
        description = "List the classes this token can see: {classes: [{class_id, title}]}, by class_id."
    )]
    fn list_classes(&self) -> Result<CallToolResult, rmcp::ErrorData> {
        result(Ok(self.shared.sync().list_classes()))
    }

    #[tool(
        description = "List the pathways this host runs: {pathways: [{pathway_id, title, version, steps: [{widget_id, entry}]}]}, entry = the widget kind's registry entry; standards: [{code, title, requires: [code]}], the prerequisites between the standards the steps name."
    )]
    fn list_pathways(&self) -> Result<CallToolResult, rmcp::ErrorData> {
        let mut pathways = json!(catalog::pathways());
        if self.shared.faults().broken_catalog
            && let Some(list) = pathways.as_array_mut()
        {
            list.push(catalog::broken_pathway());
        }
        result(Ok(
            json!({"pathways": pathways, "standards": catalog::standards()}),
        ))
    }

    #[tool(
        description = "Assign a pathway to a class. Idempotent per (class, pathway): returns the same {assignment_id}."
    )]
    fn assign_pathway(
        &self,
        Parameters(args): Parameters<AssignArgs>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        result(
            self.shared
                .sync()
                .assign(
                    &args.class_id,
                    &args.pathway_id,
                    args.due_at.as_deref(),
                    args.teacher_note.as_deref(),
                )
                .map(|id| {
                    if self.shared.faults().assign_not_idempotent {
                        let n = self.shared.connections.fetch_add(1, Ordering::Relaxed);
                        json!({"assignment_id": format!("{id}-again-{n}")})
                    } else {
                        json!({"assignment_id": id})
                    }
                }),
        )
    }

    #[tool(
        description = "The completions and struggles of a pathway in a class, exactly as the feed carried them: {completed: [...], struggles: [...]}."
    )]
    fn get_pathway_results(
        &self,
        Parameters(args): Parameters<ResultsArgs>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        let faults = self.shared.faults();
        let results = self.shared.sync().results(&args.class_id, &args.pathway_id);
        result(results.map(|mut results| {
            if faults.results_drop_first
                && let Some(completed) = results["completed"].as_array_mut()
                && !completed.is_empty()
            {
                completed.remove(0);
            }
            crate::clock::write_times_in_offset(&mut results, faults.utc_offset_minutes);
            results
        }))
    }

    #[tool(
        description = "Claim an open score or assist call for the calling teacher. Returns {claimed_by}, an opaque teacher id."
    )]
    fn claim(
        &self,
        Extension(parts): Extension<axum::http::request::Parts>,
        Parameters(args): Parameters<ClaimArgs>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        result(teacher(&parts).and_then(|t| {
            self.shared
                .sync()
                .claim(&t, &args.call_id)
                .map(|by| json!({"claimed_by": by}))
        }))
    }

    #[tool(
        description = "Answer an open call with exactly one of value and error. Returns {accepted: true}."
    )]
    fn respond(
        &self,
        Extension(parts): Extension<axum::http::request::Parts>,
        Parameters(args): Parameters<RespondArgs>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        if self.shared.faults().respond_refuses {
            return result(Err(ToolError::invalid("this host refuses every answer")));
        }
        result(teacher(&parts).and_then(|t| {
            self.shared
                .sync()
                .respond(&t, &args.call_id, args.value, args.error)
                .map(|()| json!({"accepted": true}))
        }))
    }

    #[tool(
        description = "Pause a class: its widgets show the message (at most 200 characters) and emit nothing until resume_class. Returns {paused: true}; echoed on the feed as a2learn.host.class_paused."
    )]
    fn pause_class(
        &self,
        Parameters(args): Parameters<PauseArgs>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        result(
            self.shared
                .sync()
                .pause_class(&args.class_id, args.message.as_deref())
                .map(|()| json!({"paused": true})),
        )
    }

    #[tool(
        description = "Resume a paused class. Returns {paused: false}; echoed on the feed as a2learn.host.class_resumed."
    )]
    fn resume_class(
        &self,
        Parameters(args): Parameters<ClassArgs>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        result(
            self.shared
                .sync()
                .resume_class(&args.class_id)
                .map(|()| json!({"paused": false})),
        )
    }

    #[tool(
        description = "Pace a pathway in a class: learners open no step after up_to (a widget_id of the pathway; null for no limit). Returns {up_to}; echoed on the feed as a2learn.host.pacing."
    )]
    fn set_pacing(
        &self,
        Parameters(args): Parameters<PacingArgs>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        result(
            self.shared
                .sync()
                .set_pacing(&args.class_id, &args.pathway_id, args.up_to.as_deref())
                .map(|()| json!({"up_to": args.up_to})),
        )
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for HostTools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_instructions(
            "a2learn reference pathway host: classes, pathways, assignments, the score and assist calls of the class feed, and the room controls (pause, resume, pacing).",
        )
    }
}
