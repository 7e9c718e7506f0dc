//! Errors: [`HostError`] for starting and driving a host, [`ToolError`] for the tool
//! failures of the spec (`{code, message}`).

use std::fmt;

/// Starting or driving the host failed.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: std::net::SocketAddr,
        #[source]
        source: std::io::Error,
    },
    #[error("event log {path}: {source}")]
    Log {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("event log {path}, line {line}: {reason}")]
    LogFormat {
        path: String,
        line: usize,
        reason: String,
    },
    #[error("invalid configuration: {0}")]
    Config(String),
    #[error(transparent)]
    Tool(#[from] ToolError),
}

/// The tool failure codes of the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    UnknownClass,
    UnknownPathway,
    UnknownCall,
    AlreadyClaimed,
    AlreadyAnswered,
    Expired,
    Invalid,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownClass => "unknown_class",
            ErrorCode::UnknownPathway => "unknown_pathway",
            ErrorCode::UnknownCall => "unknown_call",
            ErrorCode::AlreadyClaimed => "already_claimed",
            ErrorCode::AlreadyAnswered => "already_answered",
            ErrorCode::Expired => "expired",
            ErrorCode::Invalid => "invalid",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A tool failure: `structuredContent.error = {code, message}`. Messages name fields and
/// ids, never tokens or free text a teacher typed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ToolError {
    pub code: ErrorCode,
    pub message: String,
}

impl ToolError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ToolError {
            code,
            message: message.into(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        ToolError::new(ErrorCode::Invalid, message)
    }

    /// `{"error": {"code", "message"}}`, the structured content of a failed tool call.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"error": {"code": self.code.as_str(), "message": self.message}})
    }
}
