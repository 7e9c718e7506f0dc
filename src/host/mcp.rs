//! The MCP client for the host's tools (`pathway-host.md` §1), over Streamable HTTP with a bearer
//! token. Tool failures come back as `{code, message}`; a refused token is its own error so the
//! caller can stop instead of retrying.

use a2learn_contract::{CallError, ResponseValue};
use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::service::{RoleClient, RunningService, ServiceExt};
use rmcp::transport::streamable_http_client::{
    AuthRequiredError, HttpStatusError, StreamableHttpClientTransport,
    StreamableHttpClientTransportConfig,
};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::privacy::outgoing::OutgoingText;
use crate::store::{CatalogStandard, Pathway};

#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The host refused the token (HTTP 401/403). The token itself is never in the message.
    #[error("the host refused the token")]
    TokenRefused,
    #[error("the host cannot be reached: {0}")]
    Unreachable(String),
    /// The tool ran and failed, with one of the spec's codes.
    #[error("{code}: {message}")]
    Tool { code: String, message: String },
    #[error("the host answered something unexpected: {0}")]
    Protocol(String),
}

impl HostError {
    pub fn tool_code(&self) -> Option<&str> {
        match self {
            HostError::Tool { code, .. } => Some(code),
            _ => None,
        }
    }
}

impl crate::error::Coded for HostError {
    fn code(&self) -> crate::ErrorCode {
        match self {
            HostError::Tool { code, .. } if code == "invalid" => crate::ErrorCode::InvalidInput,
            HostError::Tool { code, .. } if code.starts_with("unknown_") => {
                crate::ErrorCode::NotFound
            }
            _ => crate::ErrorCode::Host,
        }
    }

    fn localized(&self, c: &a2learn_i18n::Words) -> Option<String> {
        match self {
            HostError::TokenRefused => Some(c.t("error-host-token-refused")),
            HostError::Unreachable(why) => {
                Some(c.t_args("error-host-unreachable", &[("why", why.into())]))
            }
            // The host's own words, or the protocol's: no catalog holds them.
            HostError::Tool { .. } | HostError::Protocol(_) => None,
        }
    }
}

/// Does this error (or anything under it) say the token was refused?
fn is_auth_failure(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = current {
        if e.downcast_ref::<AuthRequiredError>().is_some() {
            return true;
        }
        if let Some(status) = e.downcast_ref::<HttpStatusError>()
            && (status.status == 401 || status.status == 403)
        {
            return true;
        }
        current = e.source();
    }
    // rmcp reports an unchallenged 401 as an unexpected response that names the status.
    let text = err.to_string();
    text.contains("401") || text.contains("403 Forbidden") || text.contains("Unauthorized")
}

fn transport_error(err: impl std::error::Error + 'static) -> HostError {
    if is_auth_failure(&err) {
        HostError::TokenRefused
    } else {
        HostError::Unreachable(err.to_string())
    }
}

/// A class as `create_class` returns it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct CreatedClass {
    pub class_id: String,
    pub join_code: String,
}

/// One class as the optional `list_classes` names it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ListedClass {
    pub class_id: String,
    #[serde(default)]
    pub title: Option<String>,
}

#[derive(Deserialize)]
struct ClassList {
    classes: Vec<ListedClass>,
}

/// The optional tool that lists the classes a token can see (what `sync --all-classes` needs).
pub const LIST_CLASSES: &str = "list_classes";

/// What `get_pathway_results` returns: the payloads the feed carried, as the host wrote them
/// (ingest reads each as it reads the feed's, so one broken payload is kept aside and does not
/// fail the others).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct PathwayResults {
    #[serde(default)]
    pub completed: Vec<Value>,
    #[serde(default)]
    pub struggles: Vec<Value>,
}

/// What `list_pathways` returns.
#[derive(Debug, Clone, Deserialize)]
pub struct Catalog {
    pub pathways: Vec<Pathway>,
    /// Optional: the standards the steps name and their prerequisites.
    #[serde(default)]
    pub standards: Vec<CatalogStandard>,
}

/// How long a connect or a tool call waits for the host. A host that dies in the middle of a
/// call (a crash, a restart on the same port) can leave the MCP client waiting forever for a
/// response stream the new process never sends; past this the call is `Unreachable`, and the
/// sync retries it like any other failure.
pub const HOST_CALL_TIMEOUT: Duration = Duration::from_secs(20);

/// A connected MCP session with the host.
pub struct HostClient {
    service: RunningService<RoleClient, ClientConfig>,
    timeout: Duration,
}

fn no_answer(timeout: Duration) -> HostError {
    HostError::Unreachable(format!("no answer within {timeout:?}"))
}

impl std::fmt::Debug for HostClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostClient").finish_non_exhaustive()
    }
}

/// `{host}/mcp` for a host base URL.
pub fn mcp_url(base: &str) -> String {
    format!("{}/mcp", base.trim_end_matches('/'))
}

impl HostClient {
    pub async fn connect(base_url: &str, token: &str) -> Result<Self, HostError> {
        Self::connect_within(base_url, token, HOST_CALL_TIMEOUT).await
    }

    /// [`HostClient::connect`], with `timeout` for the connect and for every call after it.
    pub async fn connect_within(
        base_url: &str,
        token: &str,
        timeout: Duration,
    ) -> Result<Self, HostError> {
        let config =
            StreamableHttpClientTransportConfig::with_uri(mcp_url(base_url)).auth_header(token);
        let transport = StreamableHttpClientTransport::with_client(reqwest::Client::new(), config);
        let service = tokio::time::timeout(timeout, ClientConfig::default().serve(transport))
            .await
            .map_err(|_| no_answer(timeout))?
            .map_err(transport_error)?;
        Ok(Self { service, timeout })
    }

    /// Calls a tool and returns its `structuredContent`.
    pub async fn call(&self, tool: &'static str, arguments: Value) -> Result<Value, HostError> {
        let mut params = CallToolRequestParams::new(tool);
        if let Value::Object(map) = arguments {
            params = params.with_arguments(map);
        }
        let result = tokio::time::timeout(self.timeout, self.service.call_tool(params))
            .await
            .map_err(|_| no_answer(self.timeout))?
            .map_err(transport_error)?;
        let structured = result.structured_content.unwrap_or(Value::Null);
        if result.is_error == Some(true) {
            let error = structured.get("error").cloned().unwrap_or(Value::Null);
            let text = |key: &str| error.get(key).and_then(Value::as_str).map(str::to_string);
            return Err(HostError::Tool {
                code: text("code").unwrap_or_else(|| "unknown".into()),
                message: text("message").unwrap_or_else(|| "the tool failed".into()),
            });
        }
        Ok(structured)
    }

    async fn call_as<T: for<'de> Deserialize<'de>>(
        &self,
        tool: &'static str,
        arguments: Value,
    ) -> Result<T, HostError> {
        let value = self.call(tool, arguments).await?;
        serde_json::from_value(value).map_err(|e| HostError::Protocol(format!("{tool}: {e}")))
    }

    pub async fn list_pathways(&self) -> Result<Vec<Pathway>, HostError> {
        Ok(self.list_catalog().await?.pathways)
    }

    /// `list_pathways` whole: the pathways and (when the host declares them) the standards.
    pub async fn list_catalog(&self) -> Result<Catalog, HostError> {
        self.call_as("list_pathways", json!({})).await
    }

    /// The optional `list_classes`: every class this token can see. Ask [`Self::tool_names`]
    /// first: a host without it answers with an error.
    pub async fn list_classes(&self) -> Result<Vec<ListedClass>, HostError> {
        Ok(self
            .call_as::<ClassList>(LIST_CLASSES, json!({}))
            .await?
            .classes)
    }

    /// The title is the teacher's text: it went through [`crate::privacy::outgoing::check`].
    pub async fn create_class(&self, title: &OutgoingText) -> Result<CreatedClass, HostError> {
        self.call_as("create_class", json!({ "title": title.as_str() }))
            .await
    }

    pub async fn assign_pathway(
        &self,
        class_id: &str,
        pathway_id: &str,
        due_at: Option<&str>,
        teacher_note: Option<&OutgoingText>,
    ) -> Result<String, HostError> {
        #[derive(Deserialize)]
        struct Answer {
            assignment_id: String,
        }
        let mut args = json!({ "class_id": class_id, "pathway_id": pathway_id });
        if let Some(due) = due_at {
            args["due_at"] = json!(due);
        }
        if let Some(note) = teacher_note {
            args["teacher_note"] = json!(note.as_str());
        }
        Ok(self
            .call_as::<Answer>("assign_pathway", args)
            .await?
            .assignment_id)
    }

    pub async fn get_pathway_results(
        &self,
        class_id: &str,
        pathway_id: &str,
    ) -> Result<PathwayResults, HostError> {
        self.call_as(
            "get_pathway_results",
            json!({ "class_id": class_id, "pathway_id": pathway_id }),
        )
        .await
    }

    /// Claims a call; returns the opaque id of the teacher who holds it.
    pub async fn claim(&self, call_id: &str) -> Result<String, HostError> {
        #[derive(Deserialize)]
        struct Answer {
            claimed_by: String,
        }
        Ok(self
            .call_as::<Answer>("claim", json!({ "call_id": call_id }))
            .await?
            .claimed_by)
    }

    /// Answers a call: a value, or an error (value XOR error by construction).
    pub async fn respond(
        &self,
        call_id: &str,
        response: Result<ResponseValue, CallError>,
    ) -> Result<(), HostError> {
        let args = match response {
            Ok(value) => json!({ "call_id": call_id, "value": value }),
            Err(error) => json!({ "call_id": call_id, "error": error }),
        };
        self.call("respond", args).await.map(|_| ())
    }

    /// The names of the host's tools (`tools/list`, every page): how optional tools are found.
    pub async fn tool_names(&self) -> Result<std::collections::BTreeSet<String>, HostError> {
        let tools = self
            .service
            .list_all_tools()
            .await
            .map_err(transport_error)?;
        Ok(tools.into_iter().map(|t| t.name.into_owned()).collect())
    }

    /// Every tool `tools/list` names (every page), with the properties its input schema
    /// declares: what `host check` judges a host's tools by.
    pub async fn tool_schemas(&self) -> Result<crate::host::check::ToolSchemas, HostError> {
        let tools = self
            .service
            .list_all_tools()
            .await
            .map_err(transport_error)?;
        Ok(tools
            .into_iter()
            .map(|t| {
                let properties = t
                    .input_schema
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default();
                (t.name.into_owned(), properties)
            })
            .collect())
    }

    /// `pause_class`; the message is the teacher's text: it went through
    /// [`crate::privacy::outgoing::check`].
    pub async fn pause_class(
        &self,
        class_id: &str,
        message: Option<&OutgoingText>,
    ) -> Result<(), HostError> {
        let mut args = json!({ "class_id": class_id });
        if let Some(message) = message {
            args["message"] = json!(message.as_str());
        }
        self.call(crate::room::PAUSE_CLASS, args).await.map(|_| ())
    }

    pub async fn resume_class(&self, class_id: &str) -> Result<(), HostError> {
        self.call(crate::room::RESUME_CLASS, json!({ "class_id": class_id }))
            .await
            .map(|_| ())
    }

    /// `set_pacing`: `up_to` a step's widget id, or `None` for no limit.
    pub async fn set_pacing(
        &self,
        class_id: &str,
        pathway_id: &str,
        up_to: Option<&str>,
    ) -> Result<(), HostError> {
        self.call(
            crate::room::SET_PACING,
            json!({ "class_id": class_id, "pathway_id": pathway_id, "up_to": up_to }),
        )
        .await
        .map(|_| ())
    }

    pub async fn close(self) {
        let _ = self.service.cancel().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A "host" that accepts connections and reads requests but never answers: the connect
    /// gives up after its timeout instead of waiting forever.
    #[tokio::test]
    async fn a_host_that_never_answers_is_unreachable_after_the_timeout() {
        use tokio::io::AsyncReadExt;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let held = tokio::spawn(async move {
            let mut open = Vec::new();
            loop {
                let (mut socket, _) = listener.accept().await.unwrap();
                let mut buf = [0u8; 4096];
                let _ = socket.read(&mut buf).await;
                open.push(socket);
            }
        });
        let started = std::time::Instant::now();
        // The outer bound is for liveness only: without its own deadline the connect would
        // wait for the silent server forever.
        let err = tokio::time::timeout(
            Duration::from_secs(30),
            HostClient::connect_within(&url, "t", Duration::from_millis(300)),
        )
        .await
        .expect("connect_within gave up by itself")
        .expect_err("nothing answered");
        let waited = started.elapsed();
        assert!(
            matches!(err, HostError::Unreachable(ref m) if m.contains("no answer")),
            "{err}"
        );
        // Not before its deadline: it was the deadline that ended the wait.
        assert!(waited >= Duration::from_millis(300), "waited {waited:?}");
        held.abort();
    }
}
