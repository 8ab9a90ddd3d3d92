//! [`TableWriter`]: a shard table's Parquet file, written one row group per chunk, buffered,
//! its row groups encoded on rayon's threads where the caller asks.
//!
//! Invariant: the bytes of a table depend on its frames and their order only (the encoding is
//! per row group), and a full disk fails naming the file and the operating system's cause.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::kept_io_error::{KeptIoError, LastIoError, kept};
use super::shard_error::ShardError;

/// Bytes a table's file buffers before it writes them: polars' Parquet writer writes a row
/// group's page headers and statistics a few bytes at a time (~1,800 writes a row group: 547,000
/// system calls for 10^7 games unbuffered; BENCHMARKS.md, "The table files' writes").
const TABLE_BUFFER: usize = 1 << 20;

/// The file under a table's Parquet writer: buffered, its errors kept.
pub(super) type TableFile = BufWriter<KeptIoError<File>>;

/// A Parquet file written one row group per chunk.
pub(super) struct TableWriter {
    path: PathBuf,
    inner: Option<polars::io::parquet::write::BatchedWriter<TableFile>>,
    file: Option<TableFile>,
    /// The file's latest I/O error (a full disk), which polars' error would hide.
    last: LastIoError,
}

impl TableWriter {
    pub(super) fn create(path: &Path) -> Result<TableWriter, ShardError> {
        let f = File::create(path).map_err(|source| ShardError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let (file, last) = KeptIoError::new(f);
        Ok(TableWriter {
            path: path.to_path_buf(),
            inner: None,
            file: Some(BufWriter::with_capacity(TABLE_BUFFER, file)),
            last,
        })
    }

    pub(super) fn write(&mut self, df: &DataFrame) -> Result<(), ShardError> {
        let err = self.error();
        let w = self.writer(df)?;
        w.write_batch(df).map_err(&err)
    }

    /// Write `frames` in order, encoding and compressing them at once on rayon's threads (each
    /// frame's row groups are the bytes [`TableWriter::write`] would give it: the encoding is
    /// per row group, so the file does not depend on how many threads encode).
    pub(super) fn write_frames(&mut self, frames: &[DataFrame]) -> Result<(), ShardError> {
        use rayon::prelude::*;
        let Some(first) = frames.first() else {
            return Ok(());
        };
        let err = self.error();
        let w = self.writer(first)?;
        let encoded = frames
            .par_iter()
            .map(|df| w.encode_and_compress(df).collect::<PolarsResult<Vec<_>>>())
            .collect::<PolarsResult<Vec<_>>>()
            .map_err(&err)?;
        w.write_row_groups(encoded.into_iter().flatten().collect())
            .map_err(&err)
    }

    /// The Parquet writer, created with `df`'s schema on the first call.
    pub(super) fn writer(
        &mut self,
        df: &DataFrame,
    ) -> Result<&mut polars::io::parquet::write::BatchedWriter<TableFile>, ShardError> {
        let err = self.error();
        if self.inner.is_none() {
            let file = self.file.take().expect("file present before first batch");
            let w = ParquetWriter::new(file)
                .with_compression(ParquetCompression::Zstd(None))
                .batched(df.schema())
                .map_err(&err)?;
            self.inner = Some(w);
        }
        Ok(self.inner.as_mut().expect("writer created"))
    }

    /// The footer written and the buffer flushed (polars' writer flushes its file when it
    /// ends, so a full disk fails here; tested).
    pub(super) fn finish(mut self) -> Result<(), ShardError> {
        let err = self.error();
        if let Some(w) = self.inner.take() {
            w.finish().map_err(err)?;
        }
        Ok(())
    }

    /// A polars error as a shard error: the file's own I/O error when it had one (a full disk
    /// reads "No space left on device", not polars' "Invalid thrift: transport error").
    pub(super) fn error(&self) -> impl Fn(PolarsError) -> ShardError + use<> {
        let (path, last) = (self.path.clone(), self.last.clone());
        move |source| match kept(&last) {
            Some(source) => ShardError::Io {
                path: path.clone(),
                source,
            },
            None => ShardError::Table {
                path: path.clone(),
                source,
            },
        }
    }
}

#[cfg(test)]
mod full_disk_tests {
    use super::*;

    /// `frame` written to `/dev/full` (which answers every write with ENOSPC) as one table,
    /// then finished: the error, which must name the file and the operating system's cause,
    /// not polars' "Invalid thrift: transport error". `None` where the machine has no
    /// `/dev/full`.
    fn full_disk_error(frame: &DataFrame) -> Option<String> {
        let full = Path::new("/dev/full");
        if !full.exists() {
            return None;
        }
        let mut w = TableWriter::create(full).unwrap();
        let r = w.write(frame).and_then(|()| w.finish());
        let e = r
            .expect_err("nothing can be written to /dev/full")
            .to_string();
        assert!(e.contains("/dev/full"), "{e}");
        assert!(e.contains("No space left on device"), "{e}");
        assert!(!e.contains("thrift"), "{e}");
        Some(e)
    }

    /// A table larger than the file's buffer fails on a full disk, naming the file.
    #[test]
    fn a_full_disk_reads_no_space_left_on_device() {
        let n = 200_000u32;
        let df = df!("a" => (0..n).collect::<Vec<u32>>(), "b" => (0..n).map(|i| i.wrapping_mul(2_654_435_761)).collect::<Vec<u32>>()).unwrap();
        full_disk_error(&df);
    }

    /// A table small enough to sit in the file's buffer until the writer finishes fails too:
    /// its bytes are flushed at `finish`, not dropped silently with the writer.
    #[test]
    fn a_buffered_table_fails_at_finish_on_a_full_disk() {
        full_disk_error(&df!("a" => [1u32, 2, 3]).unwrap());
    }
}
