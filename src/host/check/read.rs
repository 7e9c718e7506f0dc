//! Reading a class feed for `host check`: the raw frames as the host sent them, each with the
//! time it arrived, so that the checks can judge the framing itself (which the sync's reader
//! forgives where nothing is lost).

use std::time::Duration;

use a2learn_proto::sse::{SseItem, SseParser};
use tokio::time::Instant;

/// One thing the feed said.
#[derive(Debug, Clone)]
pub enum Item {
    /// A data frame: its `id:` line (when it had one) and its `data:`.
    Frame { id: Option<String>, data: String },
    /// A comment line (`: ping`).
    Comment,
}

impl Item {
    /// The frame's seq, when it has an `id:` that is one.
    pub fn seq(&self) -> Option<i64> {
        match self {
            Item::Frame { id: Some(id), .. } => a2learn_proto::ingest::parse_seq(id).ok(),
            _ => None,
        }
    }
}

/// One connection to a class feed, read for a while.
#[derive(Debug, Default)]
pub struct FeedRead {
    pub status: u16,
    pub content_type: Option<String>,
    /// What arrived, with when (since the request was sent).
    pub items: Vec<(Duration, Item)>,
    /// How long the connection was watched.
    pub watched: Duration,
    /// Why reading stopped before the window ended, if it did (the host closed or broke it).
    pub ended: Option<String>,
}

impl FeedRead {
    /// The data frames, in order.
    pub fn frames(&self) -> impl Iterator<Item = (&Option<String>, &str)> {
        self.items.iter().filter_map(|(_, item)| match item {
            Item::Frame { id, data } => Some((id, data.as_str())),
            Item::Comment => None,
        })
    }

    /// The highest seq read.
    pub fn last_seq(&self) -> Option<i64> {
        self.items.iter().filter_map(|(_, i)| i.seq()).max()
    }
}

/// When to stop reading before the window ends.
pub enum Until<'a> {
    /// Read the whole window.
    Window,
    /// Stop once a frame with this seq or a higher one arrived.
    Seq(i64),
    /// Stop once nothing arrived for this long (after the opening).
    Idle(Duration),
    /// Stop once this says so, asked of each item as it arrives.
    Done(&'a mut (dyn FnMut(&Item) -> bool + Send)),
}

/// Opens the feed (`Last-Event-ID: resume` when given) and reads it for at most `window`.
pub async fn read_feed(
    http: &reqwest::Client,
    url: &str,
    token: Option<&str>,
    resume: Option<i64>,
    window: Duration,
    mut until: Until<'_>,
) -> Result<FeedRead, reqwest::Error> {
    let started = Instant::now();
    let deadline = started + window;
    let mut request = http
        .get(url)
        .header(reqwest::header::ACCEPT, "text/event-stream");
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(seq) = resume {
        request = request.header("Last-Event-ID", seq.to_string());
    }
    let mut response = match tokio::time::timeout_at(deadline, request.send()).await {
        Ok(r) => r?,
        Err(_) => {
            return Ok(FeedRead {
                watched: started.elapsed(),
                ended: Some(format!("no answer within {window:?}")),
                ..FeedRead::default()
            });
        }
    };
    let mut read = FeedRead {
        status: response.status().as_u16(),
        content_type: response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        ..FeedRead::default()
    };
    if !response.status().is_success() {
        read.watched = started.elapsed();
        return Ok(read);
    }
    let mut parser = SseParser::new();
    let mut out = Vec::new();
    let mut last_arrival = Instant::now();
    loop {
        let stop_at = match until {
            Until::Idle(idle) if read.items.len() > 2 => deadline.min(last_arrival + idle),
            _ => deadline,
        };
        let chunk = match tokio::time::timeout_at(stop_at, response.chunk()).await {
            Err(_) => break,
            Ok(Ok(Some(chunk))) => chunk,
            Ok(Ok(None)) => {
                read.ended = Some("the host closed the connection".into());
                break;
            }
            Ok(Err(e)) => {
                read.ended = Some(format!("the connection broke: {e}"));
                break;
            }
        };
        if let Err(e) = parser.feed(&chunk, &mut out) {
            read.ended = Some(e.to_string());
            break;
        }
        let at = started.elapsed();
        last_arrival = Instant::now();
        let mut reached = false;
        for item in out.drain(..) {
            let item = match item {
                SseItem::Event(e) => Item::Frame {
                    id: e.id,
                    data: e.data,
                },
                SseItem::Comment(_) => Item::Comment,
            };
            reached |= match &mut until {
                Until::Seq(target) => item.seq().is_some_and(|seq| seq >= *target),
                Until::Done(done) => done(&item),
                Until::Window | Until::Idle(_) => false,
            };
            read.items.push((at, item));
        }
        if reached {
            break;
        }
    }
    read.watched = started.elapsed();
    Ok(read)
}
