//! What the pipeline keeps under `outputs/`: the content store of output objects
//! ([`content_store`]), the run records ([`run_cache`]), the stat hints ([`stat_cache`]), the
//! lock ([`lock_file`], [`lock_holders`]), the published files ([`publisher`], [`layout`]),
//! garbage collection ([`gc`]) and verification ([`verify`]); every write through
//! [`atomic_file`].
//!
//! Invariant: an object is named by the sha256 of its bytes and appears by an atomic rename of
//! complete bytes; a run record is written after the objects it names.

pub mod atomic_file;
pub mod content_store;
pub mod gc;
pub mod layout;
pub mod lock_file;
pub mod lock_holders;
pub mod publisher;
pub mod run_cache;
pub mod stat_cache;
pub mod verify;
