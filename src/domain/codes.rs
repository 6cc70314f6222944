//! Codes people scan, type or share (check-in at the rink, invites): random
//! letters without look-alikes, read back forgivingly.

/// The letters: no 0/O, 1/I/L look-alikes.
pub const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// A fresh code of `len` letters (at most 24) from a random (v4) UUID's
/// 122 random bits, read in base 31.
pub fn random(len: usize) -> String {
    let mut bits = uuid::Uuid::new_v4().as_u128();
    let base = ALPHABET.len() as u128;
    (0..len.min(24))
        .map(|_| {
            let letter = ALPHABET[(bits % base) as usize] as char;
            bits /= base;
            letter
        })
        .collect()
}

/// A code as typed: case, spaces and dashes do not matter.
pub fn normalise(code: &str) -> String {
    code.chars().filter(|c| !c.is_whitespace() && *c != '-').flat_map(char::to_uppercase).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_use_the_alphabet_and_typing_is_forgiving() {
        for len in [8, 12] {
            let code = random(len);
            assert_eq!(code.len(), len);
            assert!(code.bytes().all(|b| ALPHABET.contains(&b)));
        }
        assert_ne!(random(12), random(12));
        assert_eq!(normalise(" abcd-efgh "), "ABCDEFGH");
    }
}
