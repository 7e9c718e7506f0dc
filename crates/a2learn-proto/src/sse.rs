//! A Server-Sent Events parser that follows the WHATWG rules: lines end in CRLF, LF or CR (and a
//! CRLF may be split across two chunks), `:` starts a comment, `data:` lines accumulate with
//! `\n`, one leading space after the colon is dropped, `id` sets the last event id (unless it
//! holds NUL), a blank line dispatches, and a leading byte-order mark is ignored.
//!
//! It is fed raw byte chunks as they arrive and yields [`SseItem`]s; it never buffers more than
//! one unfinished line plus the event being assembled.

/// Something the stream said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SseItem {
    /// A dispatched event.
    Event(SseEvent),
    /// A comment line (`: ping`): proof the connection is alive.
    Comment(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    pub event: Option<String>,
    pub data: String,
    /// The `id:` field of this event, if it had one.
    pub id: Option<String>,
}

/// The longest line accepted. A host that sends more without a line break is broken or hostile;
/// the reader drops the connection rather than grow without bound.
pub const MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SseError {
    #[error("an SSE line exceeded {MAX_LINE_BYTES} bytes")]
    LineTooLong,
}

#[derive(Debug, Default)]
pub struct SseParser {
    line: Vec<u8>,
    /// The previous chunk ended in CR: a LF at the start of the next one belongs to it.
    after_cr: bool,
    started: bool,
    data: String,
    has_data: bool,
    event: Option<String>,
    id: Option<String>,
    last_event_id: Option<String>,
}

impl SseParser {
    pub fn new() -> Self {
        Self::default()
    }

    /// The last event id the stream set (what a reconnect sends as `Last-Event-ID`).
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// Feeds a chunk of bytes and appends every completed item to `out`.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<SseItem>) -> Result<(), SseError> {
        let mut rest = chunk;
        // An empty chunk says nothing about the byte after a CR, so it keeps the CR pending:
        // otherwise `\r`, ``, `\n` would read as two line endings and dispatch early.
        if self.after_cr && !rest.is_empty() {
            if let Some(stripped) = rest.strip_prefix(b"\n") {
                rest = stripped;
            }
            self.after_cr = false;
        }
        while let Some(pos) = rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            self.line.extend_from_slice(&rest[..pos]);
            let terminator = rest[pos];
            rest = &rest[pos + 1..];
            if terminator == b'\r' {
                match rest.first() {
                    Some(b'\n') => rest = &rest[1..],
                    None => self.after_cr = true,
                    Some(_) => {}
                }
            }
            let line = std::mem::take(&mut self.line);
            self.process_line(&line, out);
        }
        self.line.extend_from_slice(rest);
        if self.line.len() > MAX_LINE_BYTES {
            self.line.clear();
            return Err(SseError::LineTooLong);
        }
        Ok(())
    }

    fn process_line(&mut self, raw: &[u8], out: &mut Vec<SseItem>) {
        let mut line = String::from_utf8_lossy(raw);
        if !self.started {
            self.started = true;
            if let Some(stripped) = line.strip_prefix('\u{feff}') {
                line = std::borrow::Cow::Owned(stripped.to_string());
            }
        }
        if line.is_empty() {
            self.dispatch(out);
            return;
        }
        if let Some(comment) = line.strip_prefix(':') {
            out.push(SseItem::Comment(comment.trim_start().to_string()));
            return;
        }
        let (field, value) = match line.find(':') {
            Some(i) => {
                let value = &line[i + 1..];
                (&line[..i], value.strip_prefix(' ').unwrap_or(value))
            }
            None => (line.as_ref(), ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = Some(value.to_string()),
            "id" if !value.contains('\0') => {
                self.id = Some(value.to_string());
                self.last_event_id = Some(value.to_string());
            }
            // `retry` is a hint for browsers; the reader has its own backoff. Unknown fields are
            // ignored, as the spec says.
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut Vec<SseItem>) {
        let id = self.id.take();
        let event = self.event.take();
        if !self.has_data {
            // An event with no data is not dispatched, but its id still counts.
            self.data.clear();
            return;
        }
        self.has_data = false;
        out.push(SseItem::Event(SseEvent {
            event,
            data: std::mem::take(&mut self.data),
            id,
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_chunks(chunks: &[&[u8]]) -> Vec<SseItem> {
        let mut parser = SseParser::new();
        let mut out = Vec::new();
        for chunk in chunks {
            parser.feed(chunk, &mut out).unwrap();
        }
        out
    }

    fn event(id: Option<&str>, data: &str) -> SseItem {
        SseItem::Event(SseEvent {
            event: None,
            data: data.into(),
            id: id.map(Into::into),
        })
    }

    #[test]
    fn lf_crlf_and_cr_line_endings_give_the_same_events() {
        let expected = vec![event(Some("1"), "{\"a\":1}"), event(Some("2"), "{\"b\":2}")];
        assert_eq!(
            parse_chunks(&[b"id: 1\ndata: {\"a\":1}\n\nid: 2\ndata: {\"b\":2}\n\n"]),
            expected
        );
        assert_eq!(
            parse_chunks(&[b"id: 1\r\ndata: {\"a\":1}\r\n\r\nid: 2\r\ndata: {\"b\":2}\r\n\r\n"]),
            expected
        );
        assert_eq!(
            parse_chunks(&[b"id: 1\rdata: {\"a\":1}\r\rid: 2\rdata: {\"b\":2}\r\r"]),
            expected
        );
    }

    #[test]
    fn a_crlf_split_across_chunks_is_one_line_ending() {
        let out = parse_chunks(&[b"data: x\r", b"\n\r", b"\ndata: y\r", b"\n", b"\r\n"]);
        assert_eq!(out, vec![event(None, "x"), event(None, "y")]);
    }

    #[test]
    fn an_empty_chunk_between_cr_and_lf_changes_nothing() {
        // Found by fuzz/fuzz_targets/sse_parser.rs: the empty chunk used to drop the pending
        // CR, so the LF after it read as a blank line, and that early dispatch dropped the id.
        let whole = parse_chunks(&[b"id: 10\r\ndata: x\r\n\r\n"]);
        assert_eq!(whole, vec![event(Some("10"), "x")]);
        assert_eq!(
            parse_chunks(&[b"id: 10\r", b"", b"\ndata: x\r\n\r\n"]),
            whole
        );
        assert_eq!(parse_chunks(&[b"data: x\r", b"", b"", b"\n"]), vec![]);
    }

    #[test]
    fn every_split_point_gives_the_same_result() {
        let stream: &[u8] =
            b"\xef\xbb\xbf: ping\r\nid: 7\r\ndata: line one\r\ndata:line two\r\n\r\n: c\n\nevent: e\ndata\n\n";
        let whole = parse_chunks(&[stream]);
        assert_eq!(whole.len(), 4, "{whole:?}");
        for split in 0..stream.len() {
            let (a, b) = stream.split_at(split);
            assert_eq!(parse_chunks(&[a, b]), whole, "split at {split}");
        }
        // byte by byte
        let bytes: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(parse_chunks(&bytes), whole);
    }

    #[test]
    fn comments_multiline_data_and_space_rules() {
        let out = parse_chunks(&[b": ping\ndata: a\ndata:  b\ndata\n\n"]);
        assert_eq!(
            out,
            vec![SseItem::Comment("ping".into()), event(None, "a\n b\n")],
            "one space dropped after the colon, not two; a bare `data` adds an empty line"
        );
    }

    #[test]
    fn ids_persist_and_ids_with_nul_are_ignored() {
        let mut parser = SseParser::new();
        let mut out = Vec::new();
        parser
            .feed(
                b"id: 5\ndata: a\n\ndata: b\n\nid: 6\0x\ndata: c\n\n",
                &mut out,
            )
            .unwrap();
        assert_eq!(
            out,
            vec![event(Some("5"), "a"), event(None, "b"), event(None, "c")]
        );
        assert_eq!(parser.last_event_id(), Some("5"));
    }

    #[test]
    fn blank_lines_without_data_dispatch_nothing_and_partial_events_wait() {
        let mut parser = SseParser::new();
        let mut out = Vec::new();
        parser
            .feed(b"\n\nid: 9\n\ndata: incomplete", &mut out)
            .unwrap();
        assert!(out.is_empty(), "{out:?}");
        assert_eq!(
            parser.last_event_id(),
            Some("9"),
            "an id-only event still sets the id"
        );
        parser.feed(b"\n\n", &mut out).unwrap();
        assert_eq!(out, vec![event(None, "incomplete")]);
    }

    #[test]
    fn unknown_fields_and_retry_are_ignored() {
        let out = parse_chunks(&[b"retry: 10\nfoo: bar\nevent: custom\ndata: d\n\n"]);
        assert_eq!(
            out,
            vec![SseItem::Event(SseEvent {
                event: Some("custom".into()),
                data: "d".into(),
                id: None
            })]
        );
    }

    #[test]
    fn an_endless_line_is_refused() {
        let mut parser = SseParser::new();
        let mut out = Vec::new();
        let chunk = vec![b'x'; 1024 * 1024];
        let mut result = Ok(());
        for _ in 0..5 {
            result = parser.feed(&chunk, &mut out);
            if result.is_err() {
                break;
            }
        }
        assert_eq!(result, Err(SseError::LineTooLong));
    }
}
