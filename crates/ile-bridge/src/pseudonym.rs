//! Learners' pseudonyms: a keyed hash (HMAC-SHA-256) of the upstream's student id with a secret
//! the bridge keeps, so the same student is the same learner across restarts, and the upstream's
//! id (a uuid that its database and its students' browsers hold) never reaches a dashboard.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// `ile_` and 24 hex digits of the keyed hash of `student_id`.
pub fn pseudonym(key: &str, student_id: &str) -> String {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key.as_bytes())
        .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
    mac.update(student_id.as_bytes());
    let digest = mac.finalize().into_bytes();
    let hex: String = digest.iter().take(12).map(|b| format!("{b:02x}")).collect();
    format!("ile_{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_per_key_never_the_id_and_a_valid_learner() {
        let id = "5b0f4c1e-8a2d-4c3b-9e7f-1a2b3c4d5e6f";
        let a = pseudonym("key-1", id);
        assert_eq!(a, pseudonym("key-1", id), "stable");
        assert_ne!(a, pseudonym("key-2", id), "keyed");
        assert_ne!(a, pseudonym("key-1", "another"), "per student");
        assert!(!a.contains("5b0f4c1e"));
        assert!(a2learn_contract::rules::check_learner(&a).is_ok(), "{a}");
    }
}
