//! Every MCP tool through a real rmcp client over Streamable HTTP, with its error codes.

mod common;

use std::time::Duration;

use a2learn_contract::Function;
use common::*;
use pathway_host::{CallState, RunningHost};
use rmcp::ServiceExt;
use rmcp::model::ClientConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};

#[tokio::test]
async fn the_tools_are_listed() {
    let host = manual_host(1).await;
    let c = client(&host, TOKEN).await;
    let mut names: Vec<String> = c
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "assign_pathway",
            "claim",
            "create_class",
            "get_pathway_results",
            "list_classes",
            "list_pathways",
            "pause_class",
            "respond",
            "resume_class",
            "set_pacing"
        ]
    );
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn classes_pathways_assignments_and_results() {
    let host = manual_host(2).await;
    let c = client(&host, TOKEN).await;

    let created = call(&c, "create_class", json!({"title": "Room 12"}))
        .await
        .unwrap();
    let class_id = created["class_id"].as_str().unwrap().to_owned();
    assert!(class_id.starts_with("cls-"));
    assert_eq!(created["join_code"].as_str().unwrap().len(), 6);
    assert_eq!(
        code(call(&c, "create_class", json!({"title": "  "})).await),
        "invalid"
    );

    // list_classes names every class, this one with its title; another is listed as it appears.
    let classes = call(&c, "list_classes", json!({})).await.unwrap();
    assert_eq!(
        classes["classes"],
        json!([{"class_id": class_id, "title": "Room 12"}])
    );
    let second = call(&c, "create_class", json!({"title": "Room 14"}))
        .await
        .unwrap();
    let classes = call(&c, "list_classes", json!({})).await.unwrap();
    let listed_ids: Vec<&str> = classes["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["class_id"].as_str().unwrap())
        .collect();
    let mut expected_ids = vec![class_id.as_str(), second["class_id"].as_str().unwrap()];
    expected_ids.sort();
    assert_eq!(listed_ids, expected_ids, "both, by class_id");

    let listed = call(&c, "list_pathways", json!({})).await.unwrap();
    let pathways = listed["pathways"].as_array().unwrap();
    assert!(pathways.len() >= 3);
    for p in pathways {
        let steps = p["steps"].as_array().unwrap();
        assert!((5..=12).contains(&steps.len()));
        for s in steps {
            let entry: a2learn_contract::RegistryEntry =
                serde_json::from_value(s["entry"].clone()).expect("a registry entry");
            a2learn_contract::validate_registry_entry(&entry).unwrap();
            assert!(s["widget_id"].as_str().is_some());
        }
        assert!(p["version"].as_str().is_some() && p["title"].as_str().is_some());
    }

    let args = json!({"class_id": class_id, "pathway_id": "fractions-compare-4",
                      "due_at": "2026-03-09T15:00:00Z", "teacher_note": "Show your work."});
    let first = call(&c, "assign_pathway", args.clone()).await.unwrap();
    let again = call(&c, "assign_pathway", args).await.unwrap();
    assert_eq!(first["assignment_id"], again["assignment_id"], "idempotent");
    let other = call(
        &c,
        "assign_pathway",
        json!({"class_id": class_id, "pathway_id": "main-idea-4"}),
    )
    .await
    .unwrap();
    assert_ne!(first["assignment_id"], other["assignment_id"]);
    assert_eq!(
        code(
            call(
                &c,
                "assign_pathway",
                json!({"class_id": "cls-nope", "pathway_id": "main-idea-4"})
            )
            .await
        ),
        "unknown_class"
    );
    assert_eq!(
        code(
            call(
                &c,
                "assign_pathway",
                json!({"class_id": class_id, "pathway_id": "nope"})
            )
            .await
        ),
        "unknown_pathway"
    );
    assert_eq!(
        code(
            call(
                &c,
                "assign_pathway",
                json!({"class_id": class_id, "pathway_id": "multiplication-area-3", "due_at": "next week"})
            )
            .await
        ),
        "invalid"
    );
    assert_eq!(
        code(
            call(
                &c,
                "assign_pathway",
                json!({"class_id": class_id, "pathway_id": "multiplication-area-3", "teacher_note": "x".repeat(2001)})
            )
            .await
        ),
        "invalid"
    );

    host.advance(Duration::from_secs(40 * 60));
    let results = call(
        &c,
        "get_pathway_results",
        json!({"class_id": class_id, "pathway_id": "fractions-compare-4"}),
    )
    .await
    .unwrap();
    // Exactly the payloads the feed carried, in feed order.
    let fed: Vec<Value> = host
        .log(&class_id)
        .iter()
        .filter(|f| custom_name(f).as_deref() == Some("a2learn.widget_completed"))
        .map(|f| f.json().unwrap()["value"].clone())
        .filter(|v| v["pathway_id"] == "fractions-compare-4")
        .collect();
    assert!(!fed.is_empty());
    assert_eq!(results["completed"].as_array().unwrap(), &fed);
    assert!(
        results["struggles"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["failed_checks"].as_u64() >= Some(2))
    );
    assert_eq!(
        code(
            call(
                &c,
                "get_pathway_results",
                json!({"class_id": "cls-nope", "pathway_id": "main-idea-4"})
            )
            .await
        ),
        "unknown_class"
    );
    assert_eq!(
        code(
            call(
                &c,
                "get_pathway_results",
                json!({"class_id": class_id, "pathway_id": "nope"})
            )
            .await
        ),
        "unknown_pathway"
    );
    c.cancel().await.unwrap();
}

/// Advances until the class has an open call of `function`; its id.
fn open_call(host: &RunningHost, class_id: &str, function: Function) -> String {
    for _ in 0..400 {
        if let Some(c) = host
            .calls(class_id)
            .into_iter()
            .find(|c| c.state == CallState::Open && c.function == function)
        {
            return c.call_id;
        }
        host.advance(Duration::from_secs(10));
    }
    panic!("no open {function:?} call");
}

#[tokio::test]
async fn claims_are_per_teacher_and_echoed_on_the_feed() {
    let host = manual_host(3).await;
    let class_id = class_with_assignment(&host);
    let alpha = client(&host, TOKEN).await;
    let bravo = client(&host, OTHER_TOKEN).await;
    let call_id = open_call(&host, &class_id, Function::Assist);

    let claimed = call(&alpha, "claim", json!({"call_id": call_id}))
        .await
        .unwrap();
    let by = claimed["claimed_by"].as_str().unwrap().to_owned();
    assert_eq!(by, pathway_host::teacher_id(TOKEN));
    assert!(by.starts_with("t-") && !by.contains(TOKEN));
    // Claiming again as the same teacher is fine; another teacher is refused.
    assert_eq!(
        call(&alpha, "claim", json!({"call_id": call_id}))
            .await
            .unwrap()["claimed_by"],
        by.as_str()
    );
    assert_eq!(
        code(call(&bravo, "claim", json!({"call_id": call_id})).await),
        "already_claimed"
    );
    let answer = json!({"answer": "Look at the denominators.", "answered_by": "teacher"});
    assert_eq!(
        code(
            call(
                &bravo,
                "respond",
                json!({"call_id": call_id, "value": answer})
            )
            .await
        ),
        "already_claimed"
    );
    assert_eq!(
        code(call(&alpha, "claim", json!({"call_id": "call-nope"})).await),
        "unknown_call"
    );

    let log = host.log(&class_id);
    let echoes: Vec<Value> = log
        .iter()
        .filter(|f| custom_name(f).as_deref() == Some("a2learn.host.call_claimed"))
        .map(|f| f.json().unwrap())
        .collect();
    assert_eq!(echoes.len(), 1, "one echo per claim");
    assert_eq!(
        echoes[0]["value"],
        json!({"call_id": call_id, "claimed_by": by})
    );
    assert!(echoes[0]["timestamp"].is_i64());

    assert_eq!(
        call(
            &alpha,
            "respond",
            json!({"call_id": call_id, "value": answer})
        )
        .await
        .unwrap(),
        json!({"accepted": true})
    );
    assert_eq!(
        code(call(&alpha, "claim", json!({"call_id": call_id})).await),
        "already_answered"
    );
    alpha.cancel().await.unwrap();
    bravo.cancel().await.unwrap();
}

#[tokio::test]
async fn respond_checks_value_xor_error_shapes_and_state() {
    let host = manual_host(4).await;
    let class_id = class_with_assignment(&host);
    let c = client(&host, TOKEN).await;
    let assist = open_call(&host, &class_id, Function::Assist);

    let answer = json!({"answer": "Compare each to one half.", "answered_by": "teacher"});
    let declined = json!({"code": "declined", "message": "Ask your group first."});
    for (args, why) in [
        (
            json!({"call_id": assist, "value": answer, "error": declined}),
            "both",
        ),
        (json!({"call_id": assist}), "neither"),
        (
            json!({"call_id": assist, "value": {"correct": true, "score": 1.0}}),
            "score value on an assist call",
        ),
        (
            json!({"call_id": assist, "value": {"answer": "", "answered_by": "teacher"}}),
            "empty answer",
        ),
        (
            json!({"call_id": assist, "value": {"answer": "Mail me at jo@example.org", "answered_by": "teacher"}}),
            "e-mail",
        ),
        (
            json!({"call_id": assist, "error": {"code": "declined"}}),
            "error without message",
        ),
    ] {
        let (code, message) = call(&c, "respond", args).await.expect_err(why);
        assert_eq!(code, "invalid", "{why}");
        assert!(
            !message.contains("jo@example.org"),
            "the message does not echo the value"
        );
    }
    assert_eq!(
        code(
            call(
                &c,
                "respond",
                json!({"call_id": "call-nope", "value": answer})
            )
            .await
        ),
        "unknown_call"
    );

    // The positive control: the same call accepts a proper answer, once.
    assert!(
        call(&c, "respond", json!({"call_id": assist, "value": answer}))
            .await
            .is_ok()
    );
    assert_eq!(
        code(call(&c, "respond", json!({"call_id": assist, "error": declined})).await),
        "already_answered"
    );
    let echo = host
        .log(&class_id)
        .into_iter()
        .rev()
        .find(|f| custom_name(f).as_deref() == Some("a2learn.assist.response"))
        .unwrap();
    let echo = echo.json().unwrap();
    assert_eq!(echo["value"]["call_id"], assist.as_str());
    assert_eq!(echo["value"]["value"], answer);

    // A score call: a score value, or an error; and `expired` after the deadline.
    let score = open_call(&host, &class_id, Function::Score);
    assert_eq!(
        code(
            call(
                &c,
                "respond",
                json!({"call_id": score, "value": {"correct": true, "score": 1.5}})
            )
            .await
        ),
        "invalid"
    );
    assert!(
        call(&c, "respond", json!({"call_id": score, "value": {"correct": false, "score": 0.25, "feedback": "Check step two."}}))
            .await
            .is_ok()
    );
    let late = open_call(&host, &class_id, Function::Assist);
    host.advance(Duration::from_secs(6 * 60));
    assert_eq!(
        code(call(&c, "respond", json!({"call_id": late, "value": answer})).await),
        "expired"
    );
    // Every response frame (teacher's and timeouts) still passes the contract.
    assert!(
        check_log(&host.log(&class_id))
            .iter()
            .all(|(_, r)| r.is_none())
    );
    c.cancel().await.unwrap();
}

#[tokio::test]
async fn a_wrong_token_cannot_open_an_mcp_session() {
    let host = manual_host(5).await;
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(host.mcp_url()).auth_header("wrong"),
    );
    let err = match ClientConfig::default().serve(transport).await {
        Ok(_) => panic!("a wrong token opened a session"),
        Err(e) => e,
    };
    let text = format!("{err:?} {err}");
    assert!(
        text.contains("401") || text.to_lowercase().contains("unauthorized"),
        "{text}"
    );
    assert!(!text.contains(TOKEN));
}
