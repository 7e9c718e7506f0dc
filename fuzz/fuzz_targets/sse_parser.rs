//! Arbitrary bytes into the feed's SSE parser, cut into arbitrary chunks. The network decides
//! where a chunk ends, so the items must not depend on it: every chunking must give what one
//! chunk gives, and no line the parser yields may still hold a line ending.
//!
//! Input layout: the first byte `n` says how many of the next bytes are chunk sizes
//! (`n % 16`); each size byte is one chunk's length (0 is an empty chunk, which a stream may
//! deliver); the rest is the stream, and whatever the sizes leave over is the last chunk.

#![no_main]

use std::sync::LazyLock;

use a2learn_proto::sse::{MAX_LINE_BYTES, SseItem, SseParser};
use libfuzzer_sys::fuzz_target;

/// The negative control (fuzz/run.sh's header): with FUZZ_NEGATIVE_CONTROL set, an event named
/// `x` panics, so a run proves the loop finds and reports a crash. run.sh never sets it. (A
/// longer name, `planted`, went unfound in 60 s once the build lost its sanitizer, whose memcmp
/// hooks had guided the fuzzer to it: without them the fuzzer learns a name byte by byte from
/// the comparisons it traces, and one byte it finds within seconds.)
static NEGATIVE_CONTROL: LazyLock<bool> =
    LazyLock::new(|| std::env::var_os("FUZZ_NEGATIVE_CONTROL").is_some());

fuzz_target!(|data: &[u8]| {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    let sizes_len = usize::from(n % 16).min(rest.len());
    let (sizes, stream) = rest.split_at(sizes_len);

    let (whole, whole_id) = parse(&[stream]);

    let mut chunks = Vec::new();
    let mut left = stream;
    for &size in sizes {
        let (chunk, tail) = left.split_at(usize::from(size).min(left.len()));
        chunks.push(chunk);
        left = tail;
    }
    chunks.push(left);
    let (split, split_id) = parse(&chunks);
    assert_eq!(
        split,
        whole,
        "chunks {:?}",
        chunks.iter().map(|c| c.len()).collect::<Vec<_>>()
    );
    assert_eq!(split_id, whole_id);

    let bytes: Vec<&[u8]> = stream.chunks(1).collect();
    let (one_by_one, one_by_one_id) = parse(&bytes);
    assert_eq!(one_by_one, whole, "byte by byte");
    assert_eq!(one_by_one_id, whole_id);

    for item in &whole {
        match item {
            SseItem::Comment(text) => assert!(!text.contains(['\r', '\n']), "{text:?}"),
            SseItem::Event(event) => {
                // `data:` lines join with `\n`; a CR never survives line splitting.
                assert!(!event.data.contains('\r'), "{event:?}");
                for field in [&event.event, &event.id].into_iter().flatten() {
                    assert!(!field.contains(['\r', '\n']), "{event:?}");
                }
                // An id holding NUL is ignored, never stored.
                assert!(!event.id.as_deref().is_some_and(|id| id.contains('\0')));
                if *NEGATIVE_CONTROL && event.event.as_deref() == Some("x") {
                    panic!("negative control: the planted event `x` was found");
                }
            }
        }
    }
    if let Some(id) = &whole_id {
        assert!(!id.contains(['\0', '\r', '\n']), "{id:?}");
    }
});

/// Feeds `chunks` in order; returns the items and the last event id.
fn parse(chunks: &[&[u8]]) -> (Vec<SseItem>, Option<String>) {
    let mut parser = SseParser::new();
    let mut out = Vec::new();
    let total: usize = chunks.iter().map(|c| c.len()).sum();
    for chunk in chunks {
        // The only error is a line longer than MAX_LINE_BYTES, which an input shorter than
        // that cannot hold.
        let result = parser.feed(chunk, &mut out);
        if total <= MAX_LINE_BYTES {
            assert_eq!(result, Ok(()));
        } else if result.is_err() {
            return (out, None);
        }
    }
    let id = parser.last_event_id().map(str::to_string);
    (out, id)
}
