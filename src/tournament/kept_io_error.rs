//! A writer that remembers the last I/O error its inner writer returned. Polars' Parquet writer
//! turns a full disk into "Invalid thrift: transport error" (the footer's writer hides the
//! operating system's error); wrapping the file lets the caller name the real cause ("No space
//! left on device") instead.
//!
//! Invariant: the bytes and the errors pass through unchanged; the wrapper only keeps a copy
//! (kind and text) of the latest error, readable through a handle after the writer has moved.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

/// The latest I/O error of a [`KeptIoError`] writer, shared with whoever holds the handle.
pub(crate) type LastIoError = Arc<Mutex<Option<(io::ErrorKind, String)>>>;

/// `inner`, keeping a copy of its latest error.
pub(crate) struct KeptIoError<W> {
    inner: W,
    last: LastIoError,
}

impl<W: Write> KeptIoError<W> {
    /// Wrap `inner`; the handle reads the latest error later.
    pub(crate) fn new(inner: W) -> (KeptIoError<W>, LastIoError) {
        let last = LastIoError::default();
        (
            KeptIoError {
                inner,
                last: last.clone(),
            },
            last,
        )
    }

    fn keep<T>(&self, r: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &r {
            let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
            *last = Some((e.kind(), e.to_string()));
        }
        r
    }
}

impl<W: Write> Write for KeptIoError<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = self.inner.write(buf);
        self.keep(r)
    }

    fn flush(&mut self) -> io::Result<()> {
        let r = self.inner.flush();
        self.keep(r)
    }
}

/// The kept error as an `io::Error`, if there is one.
pub(crate) fn kept(last: &LastIoError) -> Option<io::Error> {
    let last = last.lock().unwrap_or_else(|p| p.into_inner());
    last.as_ref()
        .map(|(kind, text)| io::Error::new(*kind, text.clone()))
}
