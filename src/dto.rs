//! Numbers as the UI's DTOs carry them. TypeScript has no 64-bit integer, so DTOs (specta) use
//! `i32` for counts and `f64` for milliseconds and row totals; the store keeps `i64`. These are
//! the conversions, in one place: call them rather than writing `as f64` or `try_from` again.

/// Milliseconds (an epoch time or a duration) as a DTO's `f64`: exact up to 2^53 ms, some
/// 285,000 years.
pub fn ms(v: i64) -> f64 {
    v as f64
}

/// A row or byte total as a DTO's `f64` (exact up to 2^53).
pub fn total(n: u64) -> f64 {
    n as f64
}

/// A count (any integer type) as a DTO's `i32`, saturating at `i32::MAX`.
pub fn count_i32(n: impl TryInto<i32>) -> i32 {
    n.try_into().unwrap_or(i32::MAX)
}

/// A count as `u32` (the suppression tables), saturating at `u32::MAX` (a negative count, which
/// SQL never gives, too).
pub fn count_u32(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_saturate_rather_than_wrap() {
        assert_eq!(
            ms(1_800_000_000_000),
            1_800_000_000_000.0,
            "epoch ms are exact"
        );
        assert_eq!(total(u64::from(u32::MAX) + 1), 4_294_967_296.0);
        assert_eq!(count_i32(42), 42);
        assert_eq!(count_i32(i64::MAX), i32::MAX, "saturates, never wraps");
        assert_eq!(count_u32(7), 7);
        assert_eq!(count_u32(i64::MAX), u32::MAX, "saturates, never wraps");
    }
}
