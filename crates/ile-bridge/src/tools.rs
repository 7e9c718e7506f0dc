//! The bridge's MCP tools (`pathway-host.md` §1, and the optional `list_classes`): the catalog,
//! the classes and the results are read from the upstream's database. The tools that would write
//! are not listed — a dashboard shows a control only for a tool the host lists, so it offers
//! none the bridge cannot honour — and a client that calls one anyway gets a clear tool error:
//! the bridge is read-only and the upstream has no such thing (no help channel, no claims, no
//! assignments made from outside).

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::classes::{ClassError, Classes, pathway_id};
use crate::server::Shared;
use std::sync::Arc;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[expect(
    dead_code,
    reason = "the tool refuses every call; its arguments only have to parse"
)]
pub struct CreateClassArgs {
    pub title: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[expect(
    dead_code,
    reason = "the tool refuses every call; its arguments only have to parse"
)]
pub struct AssignArgs {
    pub class_id: String,
    pub pathway_id: String,
    #[serde(default)]
    pub due_at: Option<String>,
    #[serde(default)]
    pub teacher_note: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ResultsArgs {
    pub class_id: String,
    pub pathway_id: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[expect(
    dead_code,
    reason = "the tool refuses every call; its arguments only have to parse"
)]
pub struct CallArgs {
    pub call_id: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[expect(
    dead_code,
    reason = "the tool refuses every call; its arguments only have to parse"
)]
pub struct RespondArgs {
    pub call_id: String,
    #[serde(default)]
    pub value: Option<Value>,
    #[serde(default)]
    pub error: Option<Value>,
}

#[derive(Clone)]
pub struct BridgeTools {
    shared: Arc<Shared>,
    tool_router: ToolRouter<Self>,
}

impl BridgeTools {
    pub(crate) fn new(shared: Arc<Shared>) -> Self {
        BridgeTools {
            shared,
            tool_router: Self::tool_router(),
        }
    }

    fn classes(&self) -> &Classes {
        &self.shared.classes
    }
}

fn ok(value: Value) -> Result<CallToolResult, rmcp::ErrorData> {
    Ok(CallToolResult::structured(value))
}

fn tool_error(code: &str, message: impl Into<String>) -> Result<CallToolResult, rmcp::ErrorData> {
    Ok(CallToolResult::structured_error(
        json!({"error": {"code": code, "message": message.into()}}),
    ))
}

fn read_only(what: &str) -> Result<CallToolResult, rmcp::ErrorData> {
    tool_error(
        "invalid",
        format!(
            "this host is a read-only bridge over the upstream project's database: {what} there"
        ),
    )
}

fn source_error(e: &ClassError) -> Result<CallToolResult, rmcp::ErrorData> {
    match e {
        ClassError::Unknown(id) => tool_error("unknown_class", format!("no shared pathway {id:?}")),
        ClassError::Source(_) => tool_error("unavailable", e.to_string()),
    }
}

#[tool_router]
impl BridgeTools {
    #[tool(
        description = "Not offered by this read-only bridge: share a pathway in the upstream app."
    )]
    fn create_class(
        &self,
        Parameters(_): Parameters<CreateClassArgs>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        read_only("share a pathway")
    }

    #[tool(
        description = "Not offered by this read-only bridge: each shared pathway is its own class and pathway."
    )]
    fn assign_pathway(
        &self,
        Parameters(_): Parameters<AssignArgs>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        read_only("share a pathway")
    }

    #[tool(description = "Not offered: the upstream project has no help requests to claim.")]
    fn claim(
        &self,
        Parameters(_): Parameters<CallArgs>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        read_only("students ask the model")
    }

    #[tool(description = "Not offered: the upstream project has no help requests to answer.")]
    fn respond(
        &self,
        Parameters(_): Parameters<RespondArgs>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        read_only("students ask the model")
    }

    #[tool(description = "Every shared pathway, each one class: {classes: [{class_id, title}]}.")]
    async fn list_classes(&self) -> Result<CallToolResult, rmcp::ErrorData> {
        match self.classes().source().sessions().await {
            Ok(sessions) => ok(json!({"classes": sessions.iter().map(|s| json!({
                "class_id": s.id, "title": s.topic})).collect::<Vec<_>>()})),
            Err(e) => tool_error("unavailable", format!("the upstream database: {e}")),
        }
    }

    #[tool(
        description = "Every shared pathway's steps, each with its registry entry: {pathways: [...]}."
    )]
    async fn list_pathways(&self) -> Result<CallToolResult, rmcp::ErrorData> {
        let sessions = match self.classes().source().sessions().await {
            Ok(s) => s,
            Err(e) => return tool_error("unavailable", format!("the upstream database: {e}")),
        };
        let pathways: Vec<Value> = sessions
            .iter()
            .map(|s| {
                let steps: Vec<Value> = a2learn_contract::dialect::ile::plan_steps(&s.id, &s.plan)
                    .into_iter()
                    .filter_map(|step| {
                        let entry = a2learn_contract::dialect::ile::registry_entry(&step.kind)?;
                        Some(json!({"widget_id": step.widget_id, "entry": entry}))
                    })
                    .collect();
                json!({"pathway_id": pathway_id(&s.id), "title": s.topic, "version": "1", "steps": steps})
            })
            .collect();
        ok(json!({"pathways": pathways}))
    }

    #[tool(
        description = "The completions and struggles of a shared pathway, exactly as its feed carries them: {completed, struggles}."
    )]
    async fn get_pathway_results(
        &self,
        Parameters(args): Parameters<ResultsArgs>,
    ) -> Result<CallToolResult, rmcp::ErrorData> {
        if args.pathway_id != pathway_id(&args.class_id) {
            return tool_error(
                "unknown_pathway",
                format!(
                    "class {:?} has one pathway, {:?}",
                    args.class_id,
                    pathway_id(&args.class_id)
                ),
            );
        }
        let settled = *self.shared.settled.borrow();
        match self.classes().caught_up(&args.class_id, settled).await {
            Ok(log) => {
                let log = log.lock().await;
                ok(json!({"completed": log.completed, "struggles": log.struggles}))
            }
            Err(e) => source_error(&e),
        }
    }
}

/// The tools a host that writes would have (`pathway-host.md` §1): called, they refuse; listed,
/// they are not.
pub const WRITE_TOOLS: [&str; 4] = ["create_class", "assign_pathway", "claim", "respond"];

#[tool_handler(router = self.tool_router)]
impl ServerHandler for BridgeTools {
    async fn list_tools(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListToolsResult, rmcp::ErrorData> {
        let tools = self
            .tool_router
            .list_all()
            .into_iter()
            .filter(|tool| !WRITE_TOOLS.contains(&tool.name.as_ref()))
            .collect();
        Ok(rmcp::model::ListToolsResult::with_all_items(tools))
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_instructions(
            "a2learn bridge over an interactive-learning-experiences database: its shared pathways as classes, read-only.",
        )
    }
}
