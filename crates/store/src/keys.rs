//! Accounts and their API keys. Keys are random (256 bits) and stored only as SHA-256 hashes:
//! a key that high in entropy needs no salt or slow hash. The keys seen lately are kept in
//! memory by their hash; a key not there is looked up in the database, so a key made by another
//! process works at once.

use std::collections::HashMap;
use std::sync::RwLock;
use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};

/// The e-mail address of the account a new data dir starts with.
pub const DEFAULT_EMAIL: &str = "local@diagtui.localhost";

/// The title of an account's first folder.
pub const FIRST_FOLDER_TITLE: &str = "My Documents";

/// How many keys are kept in memory at most.
const MAX_KEYS: usize = 10_000;

/// An account as requests act on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// The account id (a UUID).
    pub id: String,
    /// The e-mail address.
    pub email: String,
}

/// The SHA-256 hash of an API key.
pub type KeyHash = [u8; 32];

/// A fresh API key: 32 random bytes as lowercase hex.
pub fn new_key() -> String {
    let bytes: [u8; 32] = diagtui_model::ids::random_bytes();
    hex(&bytes)
}

/// Bytes as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

/// The hash of a key.
pub fn hash_key(key: &str) -> KeyHash {
    Sha256::digest(key.as_bytes()).into()
}

/// The keys seen lately, by hash.
#[derive(Default)]
pub struct KeyCache {
    known: RwLock<HashMap<KeyHash, Account>>,
    /// Counts forgettings, so that a lookup that raced one is not kept.
    epoch: AtomicU64,
}

impl KeyCache {
    /// The account of a known key.
    pub fn get(&self, hash: &KeyHash) -> Option<Account> {
        self.known
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(hash)
            .cloned()
    }

    /// The current epoch, to pass to [`KeyCache::remember`] after a lookup.
    pub fn epoch(&self) -> u64 {
        self.epoch.load(Ordering::Acquire)
    }

    /// Keeps a key found in the database, unless keys were forgotten since `epoch`.
    pub fn remember(&self, hash: KeyHash, account: Account, epoch: u64) {
        let mut known = self.known.write().unwrap_or_else(|e| e.into_inner());
        if self.epoch.load(Ordering::Acquire) != epoch {
            return;
        }
        if known.len() >= MAX_KEYS {
            known.clear();
        }
        known.insert(hash, account);
    }

    /// Forgets the keys of an account (its key changed).
    pub fn forget_account(&self, account_id: &str) {
        let mut known = self.known.write().unwrap_or_else(|e| e.into_inner());
        self.epoch.fetch_add(1, Ordering::AcqRel);
        known.retain(|_, account| account.id != account_id);
    }

    /// Forgets every key (another process changed the database).
    pub fn clear(&self) {
        let mut known = self.known.write().unwrap_or_else(|e| e.into_inner());
        self.epoch.fetch_add(1, Ordering::AcqRel);
        known.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_random_hex_and_hash_to_32_bytes() {
        let (a, b) = (new_key(), new_key());
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert!(
            a.bytes()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
        assert_ne!(hash_key(&a), hash_key(&b));
    }

    #[test]
    fn a_lookup_that_raced_a_forgetting_is_not_kept() {
        let cache = KeyCache::default();
        let bob = Account {
            id: "b".into(),
            email: "bob@example.com".into(),
        };
        let before = cache.epoch();
        cache.forget_account("b");
        cache.remember(hash_key("k"), bob.clone(), before);
        assert_eq!(cache.get(&hash_key("k")), None);
        cache.remember(hash_key("k"), bob.clone(), cache.epoch());
        assert_eq!(cache.get(&hash_key("k")), Some(bob));
        cache.clear();
        assert_eq!(cache.get(&hash_key("k")), None);
    }
}
